import type { PlatformPlugin } from "@platform/core";
import { Clock, IdGenerator, SessionStore, UserRepository } from "@platform/core/ports";
import { type Db, MongoClient } from "mongodb";
import { MongoSessionStore } from "./mongo-session-store.js";
import { MongoUserRepository } from "./mongo-user-repository.js";

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
 * Replaces the stateful defaults with MongoDB stores. This first step covers the UserRepository and
 * the SessionStore; the other stores of issue 16 follow. At start it creates their indexes.
 */
export function mongoPlugin(options: MongoPluginOptions): PlatformPlugin {
  return {
    id: "mongo",
    register(ctx) {
      const owned = "uri" in options;
      const client = owned ? new MongoClient(options.uri) : options.client;
      const db: Db = client.db(owned ? (options.dbName ?? dbNameOf(options.uri)) : options.dbName);
      const stores: { ensureIndexes(): Promise<void> }[] = [];
      const track = <T extends { ensureIndexes(): Promise<void> }>(store: T): T => {
        stores.push(store);
        return store;
      };
      ctx.override(UserRepository, {
        useFactory: (c) =>
          track(new MongoUserRepository({ db, ids: c.resolve(IdGenerator), clock: c.resolve(Clock) })),
      });
      ctx.override(SessionStore, {
        useFactory: (c) => track(new MongoSessionStore({ db, clock: c.resolve(Clock) })),
      });
      ctx.onStart("mongo: connect and create indexes", async () => {
        await client.connect();
        ctx.container.resolve(UserRepository);
        ctx.container.resolve(SessionStore);
        for (const store of stores) await store.ensureIndexes();
      });
      ctx.onStop("mongo: close the client", async () => {
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
