import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describeMongoUri, MONGO_URI, mongoPlugin } from "@platform/adapters-mongo";
import { envNameOf, PlatformError } from "@platform/core";
import type { HostConfig } from "./host-config.js";

/** The key-encryption key's property (read here only to know whether one is configured). */
const KEK_KEY = "platform.keys.encryption-key";

/** Where the demo keeps the key-encryption key it generated for a MongoDB store, beside its outbox. */
export const DEMO_KEK_FILE = ".platform/key-encryption-key";

/** The demo's store: the host configuration to start with, and the start-up lines that say which. */
export interface DemoStore {
  host: HostConfig;
  lines: string[];
}

/**
 * Picks the demo's store. A MongoDB connection string from `--mongo-uri`, else `platform.mongo.uri`
 * (host configuration, then `PLATFORM_MONGO_URI`), adds mongoPlugin; none keeps the in-memory
 * default. With MongoDB and no `platform.keys.encryption-key` configured, the demo uses the key in
 * `.platform/key-encryption-key` (generated once, mode 0600), so its sealed keys open again after a
 * restart; the lines name the file, never the key, and the store without credentials.
 */
export function demoStore(
  host: HostConfig,
  mongoUri: string | undefined,
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): DemoStore {
  const uri = mongoUri ?? stringOf(host.properties?.[MONGO_URI.key]) ?? env[envNameOf(MONGO_URI.key)] ?? "";
  if (uri === "")
    return { host, lines: ["  store: in memory (lost at stop; --mongo-uri keeps it in MongoDB)"] };
  const lines = [`  store: MongoDB ${describeMongoUri(uri)}`];
  const properties: Record<string, unknown> = { ...host.properties, [MONGO_URI.key]: uri };
  if (stringOf(host.properties?.[KEK_KEY]) === undefined && !env[envNameOf(KEK_KEY)]) {
    const { key, created } = demoKeyEncryptionKey(resolve(cwd, DEMO_KEK_FILE));
    properties[KEK_KEY] = key;
    lines.push(
      `  key-encryption key: ${DEMO_KEK_FILE} (${created ? "generated now" : "kept from an earlier start"}; ` +
        `keep it apart from the database and its backups, which it unlocks; or set ${KEK_KEY})`,
    );
  }
  return {
    host: { ...host, properties, plugins: [...(host.plugins ?? []), mongoPlugin({ uri })] },
    lines,
  };
}

/** The key in `file`, or a new random one written there first (owner read/write only). */
export function demoKeyEncryptionKey(file: string): { key: string; created: boolean } {
  try {
    const key = readFileSync(file, "utf8").trim();
    if (key !== "") {
      refuseShared(file);
      return { key, created: false };
    }
  } catch (error) {
    if ((error as { code?: unknown }).code !== "ENOENT") throw error;
  }
  const key = `base64url:${randomBytes(32).toString("base64url")}`;
  mkdirSync(dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another demo process wrote it first: use theirs.
    if ((error as { code?: unknown }).code === "EEXIST") return demoKeyEncryptionKey(file);
    throw error;
  }
  chmodSync(file, 0o600);
  return { key, created: true };
}

/** A key file others may read is refused, as ssh refuses a private key others may read. */
function refuseShared(file: string): void {
  if (process.platform === "win32") return;
  if ((statSync(file).mode & 0o077) !== 0) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `${file} may be read by other users: chmod 600 it (it unlocks the database's keys)`,
    );
  }
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
