import type { Authentication } from "../../identity/authentication/authentication.js";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { resolveProperties } from "../../kernel/properties.js";
import { ADAPTIVE_PROPERTIES } from "../../mfa/adaptive/risk-thresholds.js";
import { InMemoryZeroTrustActionStore } from "./in-memory-zero-trust-action-store.js";
import { ZeroTrustActionResolver } from "./zero-trust-action-resolver.js";
import { ZeroTrustActionService } from "./zero-trust-action-service.js";
import type { ZeroTrustActionRecord, ZeroTrustActionStore } from "./zero-trust-action-store.js";
import { ZERO_TRUST_PROPERTIES } from "./zero-trust.properties.js";

/** Test fixture: an authentication holding `authorities` and `factors`. */
export function user(
  userId: string,
  username: string,
  authorities: string[] = ["ROLE_USER"],
  factors: Authentication["factors"] = [{ type: "pwd", at: 0 }],
): Authentication {
  return { userId, username, authorities, method: "form", authenticatedAt: 0, factors };
}

/** Test fixture: two users and an administrator. */
export const ALICE = user("u-alice", "alice");
export const BOB = user("u-bob", "bob");
export const ROOT = user("u-root", "root", ["ROLE_USER", "ROLE_ADMIN"]);

/** Test fixture: zero-trust (and threshold) properties with `code` overrides, no environment. */
export function zeroTrustProperties(code: Record<string, unknown> = {}) {
  return resolveProperties([...ZERO_TRUST_PROPERTIES, ...ADAPTIVE_PROPERTIES], { code, env: {} });
}

/** Test fixture: a random source answering `values` in order (then throwing, so extra draws fail the test). */
export function sequence(...values: number[]): () => number {
  let i = 0;
  return () => {
    if (i >= values.length) throw new Error(`random() drawn ${i + 1} times, only ${values.length} expected`);
    return values[i++]!;
  };
}

/**
 * Test fixture: a store wrapper counting `get` calls per subject; `mode` makes gets hang, throw, reject,
 * or wait for `release()`.
 */
export class ProbeStore implements ZeroTrustActionStore {
  readonly gets: string[] = [];
  mode: "pass" | "hang" | "throw" | "reject" | "held" = "pass";
  private held: (() => void)[] = [];

  constructor(readonly inner: ZeroTrustActionStore) {}

  get(subject: string): Promise<ZeroTrustActionRecord | undefined> {
    this.gets.push(subject);
    switch (this.mode) {
      case "hang":
        return new Promise(() => {});
      case "throw":
        throw new Error("mongodb://secret@host refused");
      case "reject":
        return Promise.reject(new Error("mongodb://secret@host refused"));
      case "held":
        return new Promise((resolve) => this.held.push(() => resolve(this.inner.get(subject))));
      default:
        return this.inner.get(subject);
    }
  }
  /** Lets every held `get` read the inner store now. */
  release(): void {
    for (const r of this.held.splice(0)) r();
  }
  put: ZeroTrustActionStore["put"] = (r, ttl) => this.inner.put(r, ttl);
  delete: ZeroTrustActionStore["delete"] = (s) => this.inner.delete(s);
  list: ZeroTrustActionStore["list"] = (o) => this.inner.list(o);
}

/** Test fixture: resolver and service over a probed in-memory store, a manual clock and a recording sink. */
export function setup(code: Record<string, unknown> = {}, random: () => number = sequence()) {
  const clock = new ManualClock();
  const memory = new InMemoryZeroTrustActionStore({ clock });
  const store = new ProbeStore(memory);
  const audit = new InMemoryAuditSink(1_000, clock);
  const properties = zeroTrustProperties(code);
  const resolver = new ZeroTrustActionResolver(store, clock, audit, properties, random);
  const service = new ZeroTrustActionService(store, resolver, audit);
  return { clock, memory, store, audit, properties, resolver, service };
}
