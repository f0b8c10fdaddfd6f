import { resolve } from "node:path";
import { describeMongoUri, MONGO_URI, mongoPlugin } from "@keyward/adapters-mongo";
import { envNameOf } from "@keyward/core";
import {
  assertDemoKeyFileWritable,
  newDemoKeyEncryptionKey,
  readDemoKeyEncryptionKey,
  saveDemoKeyEncryptionKey,
} from "./demo-key-encryption-key.js";
import type { HostConfig } from "./host-config.js";

/** The key-encryption key's property (read here only to know whether one is configured). */
const KEK_KEY = "platform.keys.encryption-key";

/** Where the demo keeps the key-encryption key it generated for a MongoDB store, beside its outbox. */
export const DEMO_KEK_FILE = ".platform/key-encryption-key";

/** The demo's store: the host configuration to start with, and the start-up lines that say which. */
export interface DemoStore {
  host: HostConfig;
  lines: string[];
  /** True when the key-encryption key was generated for this start and is not saved yet. */
  generatedKey: boolean;
  /**
   * Saves what only a successful start may leave behind: a key-encryption key generated for it
   * (`.platform/key-encryption-key`, created exclusively, mode 0600). Call it once the store opened and
   * the platform started; a failed start calls nothing and leaves no file. A no-op otherwise.
   */
  persist(): void;
}

const NOTHING_TO_PERSIST = { generatedKey: false, persist: () => {} } as const;

/**
 * Picks the demo's store. A MongoDB connection string from `--mongo-uri`, else `platform.mongo.uri`
 * (host configuration, then `PLATFORM_MONGO_URI`), adds mongoPlugin; none keeps the in-memory
 * default. With MongoDB and no `platform.keys.encryption-key` configured, the demo uses the key in
 * `.platform/key-encryption-key`, so its sealed keys open again after a restart; without that file a
 * key is generated in memory and written only by `persist()`, once the start succeeded (an
 * unreachable database, or data sealed under another key, leaves no file behind). The lines name the
 * file, never the key, and the store without credentials. Writes nothing itself.
 */
export function demoStore(
  host: HostConfig,
  mongoUri: string | undefined,
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): DemoStore {
  const uri = mongoUri ?? stringOf(host.properties?.[MONGO_URI.key]) ?? env[envNameOf(MONGO_URI.key)] ?? "";
  if (uri === "")
    return {
      host,
      lines: ["  store: in memory (lost at stop; --mongo-uri keeps it in MongoDB)"],
      ...NOTHING_TO_PERSIST,
    };
  const lines = [`  store: MongoDB ${describeMongoUri(uri)}`];
  const properties: Record<string, unknown> = { ...host.properties, [MONGO_URI.key]: uri };
  const withMongo = { ...host, properties, plugins: [...(host.plugins ?? []), mongoPlugin({ uri })] };
  if (stringOf(host.properties?.[KEK_KEY]) !== undefined || env[envNameOf(KEK_KEY)])
    return { host: withMongo, lines, ...NOTHING_TO_PERSIST };
  const file = resolve(cwd, DEMO_KEK_FILE);
  const kept = readDemoKeyEncryptionKey(file);
  // Refused now, not after the start: a key the start sealed data under must be one it can keep.
  if (kept === undefined) assertDemoKeyFileWritable(file);
  const key = kept ?? newDemoKeyEncryptionKey();
  properties[KEK_KEY] = key;
  lines.push(
    `  key-encryption key: ${DEMO_KEK_FILE} (${kept === undefined ? "generated now" : "kept from an earlier start"}; ` +
      `keep it apart from the database and its backups, which it unlocks; or set ${KEK_KEY})`,
  );
  if (kept !== undefined) return { host: withMongo, lines, ...NOTHING_TO_PERSIST };
  let saved = false;
  const persist = () => {
    if (!saved) saveDemoKeyEncryptionKey(file, key);
    saved = true;
  };
  return { host: withMongo, lines, generatedKey: true, persist };
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
