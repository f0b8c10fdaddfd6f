import { randomUUID } from "node:crypto";
import type { PlatformPlugin } from "@keyward/core";
import { Clock, ErrorTranslator, HealthIndicator, Logger } from "@keyward/core/ports";
import { type Db, MongoClient } from "mongodb";
import type { DependencyContainer } from "tsyringe";
import { MongoHealthIndicator } from "./mongo-health-indicator.js";
import { collectionRecordingDb, indexConflictError } from "./mongo-index-conflicts.js";
import { MONGO_MIGRATIONS, type MongoMigration } from "./mongo-migrations.js";
import { isMongoOutage, mongoErrorTranslator, mongoUnavailable } from "./mongo-outage.js";
import { MONGO_PROPERTIES } from "./mongo-properties.js";
import { migrateSchema } from "./mongo-schema.js";
import type { MongoStore } from "./mongo-store-registration.js";
import { MONGO_STORES as STORES } from "./mongo-stores.js";
import { dbNameOf, describeMongoUri, ownedClientOptions } from "./mongo-uri.js";

/** Where mongoPlugin keeps its data: a connection string, or a client the host owns. */
export type MongoPluginOptions = (
  | {
      /**
       * `mongodb://…` or `mongodb+srv://…`; the plugin owns the client and closes it at stop. Its
       * timeouts default to `OWNED_CLIENT_DEFAULTS` (docs/mongodb.md); options in the string win.
       */
      uri: string;
      /** Database name (default: the one in the URI, else `platform`). */
      dbName?: string;
    }
  | {
      /** A client the host created and closes (its timeouts are the host's). */
      client: MongoClient;
      dbName: string;
    }
) & {
  /** The layouts to migrate through at start (default: this build's, `MONGO_MIGRATIONS`); for tests. */
  migrations?: readonly MongoMigration[];
};

/**
 * Replaces the stateful defaults with MongoDB stores (the lists in identity-stores.ts, token-stores.ts,
 * mfa-authz-stores.ts, decision-stores.ts and coordination-stores.ts). At start, before any plugin's
 * start hook: connects (unreachable → DEPENDENCY_UNAVAILABLE), migrates the schema one instance at a
 * time, then creates every store's indexes (a conflict → CONFIGURATION_INVALID naming collection and
 * index). At run time a MongoDB outage answers 503 DEPENDENCY_UNAVAILABLE (its ErrorTranslator
 * member) and `/health` names it (its HealthIndicator member, fed by the driver's monitoring events);
 * the driver reconnects by itself.
 */
export function mongoPlugin(options: MongoPluginOptions): PlatformPlugin {
  return {
    id: "mongo",
    properties: MONGO_PROPERTIES,
    register(ctx) {
      const owned = "uri" in options;
      const client = owned ? new MongoClient(options.uri, ownedClientOptions(options.uri)) : options.client;
      const dbName = owned ? (options.dbName ?? dbNameOf(options.uri)) : options.dbName;
      const target = owned ? describeMongoUri(options.uri, dbName) : `(host's client)/${dbName}`;
      const db: Db = client.db(dbName);
      const health = new MongoHealthIndicator(client);
      const collections = new Map<MongoStore, Set<string>>();
      for (const { token, create } of STORES) {
        ctx.override(token, {
          useFactory: (c) => {
            const opened = new Set<string>();
            const store = create(collectionRecordingDb(db, opened), c);
            collections.set(store, opened);
            return store;
          },
        });
      }
      ctx.registerMember(ErrorTranslator, { useValue: mongoErrorTranslator(() => health.unreachable()) });
      ctx.registerMember(HealthIndicator, { useValue: health });
      ctx.onConnect("connect, migrate and create indexes", async (c) => {
        await connect(client, target);
        health.connected();
        try {
          await migrate(db, c, options.migrations ?? MONGO_MIGRATIONS);
          // Resolving builds each store (a host override may have replaced some: those are not ours).
          for (const { token } of STORES) c.resolve(token);
          for (const [store, opened] of collections) await ensureIndexes(store, [...opened]);
        } catch (error) {
          throw isMongoOutage(error)
            ? mongoUnavailable(error, `MongoDB at ${target} stopped answering during the start`)
            : error;
        }
      });
      ctx.onStop("flush the stores and close the client", async () => {
        // Events queued by the audit trail are written before the client goes (a host's client too).
        for (const store of collections.keys()) await store.flush?.().catch(() => undefined);
        if (owned) await client.close();
      });
    },
  };
}

/** Connects, or fails the start with DEPENDENCY_UNAVAILABLE naming hosts and database (never credentials). */
async function connect(client: MongoClient, target: string): Promise<void> {
  try {
    await client.connect();
  } catch (error) {
    if (!isMongoOutage(error)) throw error;
    throw mongoUnavailable(
      error,
      `MongoDB at ${target} cannot be reached: check that it runs and the address`,
    );
  }
}

async function migrate(db: Db, c: DependencyContainer, migrations: readonly MongoMigration[]): Promise<void> {
  const clock = c.resolve(Clock);
  const outcome = await migrateSchema({ db, migrations, owner: randomUUID(), now: () => clock.now() });
  if (outcome.ran.length > 0)
    c.resolve(Logger).info("MongoDB schema migrated", {
      database: db.databaseName,
      from: outcome.from,
      to: outcome.to,
    });
  for (const { version, report } of outcome.reports) {
    c.resolve(Logger).warn(`MongoDB migration ${version}: ${report.message}`, {
      database: db.databaseName,
      ...report.details,
    });
  }
}

async function ensureIndexes(store: MongoStore, collections: readonly string[]): Promise<void> {
  try {
    await store.ensureIndexes();
  } catch (error) {
    throw indexConflictError(error, collections) ?? error;
  }
}
