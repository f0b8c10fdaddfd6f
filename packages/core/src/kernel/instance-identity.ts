import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { z } from "zod";
import { defineProperty } from "./properties.js";

/** Names an instance may take: 1 to 128 of letters, digits, `.`, `_` and `-`. */
const INSTANCE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The name this instance reports under (heartbeats, its evidence chain); blank generates one per process. */
export const INSTANCE_ID_PROPERTY = defineProperty<string>({
  key: "platform.instance.id",
  schema: z
    .string()
    .trim()
    .refine(
      (v) => v === "" || INSTANCE_ID.test(v),
      "must be blank or 1 to 128 of letters, digits, '.', '_', '-'",
    ),
  default: "",
  description:
    "The name this instance reports under (its heartbeat, its evidence chain); blank: `<host>-<pid>-<random>`, " +
    "new for every process.",
});

/**
 * Who this process is among the platform's instances: a name stable for the life of the process and
 * when it started. Registered by the kernel (from `platform.instance.id`, else generated); features
 * that write per-instance records (heartbeats, evidence chains) read it.
 */
export class InstanceIdentity {
  constructor(
    /** 1 to 128 of letters, digits, `.`, `_` and `-`. */
    readonly instanceId: string,
    /** When the process's platform was assembled (epoch milliseconds). */
    readonly startedAt: number,
  ) {}

  /** The configured name, else `<host>-<pid>-<6 hex>` (the host name cut and cleaned to fit). */
  static of(configured: string, startedAt: number): InstanceIdentity {
    if (configured !== "") return new InstanceIdentity(configured, startedAt);
    const host =
      hostname()
        .replace(/[^A-Za-z0-9._-]/g, "_")
        .slice(0, 96) || "host";
    return new InstanceIdentity(`${host}-${process.pid}-${randomBytes(3).toString("hex")}`, startedAt);
  }
}
