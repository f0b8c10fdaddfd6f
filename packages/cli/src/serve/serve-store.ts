import { describeMongoUri, MONGO_URI, mongoPlugin } from "@keyward/adapters-mongo";
import { envNameOf } from "@keyward/core";
import type { HostConfig } from "../host-config.js";

/** A host configuration with its store plugged in, and the start-up line that says which store. */
export interface ServeStore {
  host: HostConfig;
  line: string;
  /** True when MongoDB keeps the data; false for the in-memory default. */
  mongo: boolean;
}

/**
 * The store `platform serve` runs on, as the configuration says: its own `mongo` plugin, else
 * `platform.mongo.uri` (the configuration's properties, then `PLATFORM_MONGO_URI`) adds mongoPlugin,
 * else the in-memory default. Unlike the demo it never makes a key-encryption key: MongoDB without
 * `platform.keys.encryption-key` configured refuses to start (the KeyRing's rule). The line names the
 * store without credentials.
 */
export function serveStore(host: HostConfig, env: Record<string, string | undefined>): ServeStore {
  if (host.plugins?.some((plugin) => plugin.id === "mongo")) {
    return { host, line: "  store: MongoDB (the configuration's mongo plugin)", mongo: true };
  }
  const configured = host.properties?.[MONGO_URI.key];
  const uri =
    typeof configured === "string" && configured !== "" ? configured : env[envNameOf(MONGO_URI.key)];
  if (!uri) {
    return {
      host,
      line: `  store: in memory (lost at stop: set ${MONGO_URI.key} or ${envNameOf(MONGO_URI.key)} for MongoDB)`,
      mongo: false,
    };
  }
  return {
    host: { ...host, plugins: [...(host.plugins ?? []), mongoPlugin({ uri })] },
    line: `  store: MongoDB ${describeMongoUri(uri)}`,
    mongo: true,
  };
}
