import type { PlatformPlugin } from "@platform/core";
import { type Db, MongoClient } from "mongodb";
import { identityStores } from "./identity-stores.js";
import { mfaAuthzStores } from "./mfa-authz-stores.js";
import type { MongoStore, MongoStoreRegistration } from "./mongo-store-registration.js";
import { tokenStores } from "./token-stores.js";

/** Every port mongoPlugin replaces, by module. */
const STORES: readonly MongoStoreRegistration[] = [...identityStores, ...tokenStores, ...mfaAuthzStores];

/** Where mongoPlugin keeps its data: a connection string, or a client the host owns. */
export type MongoPluginOptions =
  | {
      /** `mongodb://…` or `mongodb+srv://…`; the plugin owns the client and closes it at stop. */
      uri: string;
      /** Database name (default: the one in the URI, else `platform`). */
      dbName?: string;
    }
  | {
      /** A client the host created and closes. */
      client: MongoClient;
      dbName: string;
    };

/**
 * Replaces the stateful defaults with MongoDB stores (the lists in identity-stores.ts, token-stores.ts
 * and mfa-authz-stores.ts). At start, before any plugin's start hook, it connects and creates every
 * store's indexes.
 */
export function mongoPlugin(options: MongoPluginOptions): PlatformPlugin {
  return {
    id: "mongo",
    register(ctx) {
      const owned = "uri" in options;
      const client = owned ? new MongoClient(options.uri) : options.client;
      const db: Db = client.db(owned ? (options.dbName ?? dbNameOf(options.uri)) : options.dbName);
      const created = new Set<MongoStore>();
      for (const { token, create } of STORES) {
        ctx.override(token, {
          useFactory: (c) => {
            const store = create(db, c);
            created.add(store);
            return store;
          },
        });
      }
      ctx.onConnect("connect and create indexes", async (c) => {
        await client.connect();
        // Resolving builds each store (a host override may have replaced some: those are not ours).
        for (const { token } of STORES) c.resolve(token);
        for (const store of created) await store.ensureIndexes();
      });
      ctx.onStop("close the client", async () => {
        if (owned) await client.close();
      });
    },
  };
}

/** The database named in a connection string's path, else `platform`. */
function dbNameOf(uri: string): string {
  const path = /^mongodb(?:\+srv)?:\/\/[^/]+\/([^?]*)/.exec(uri)?.[1];
  return path ? decodeURIComponent(path) : "platform";
}
