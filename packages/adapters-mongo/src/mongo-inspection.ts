import type { Db } from "mongodb";
import { MongoClient } from "mongodb";
import type { DependencyContainer } from "tsyringe";
import { usernameKey } from "@keyward/core/adapter-kit";
import { MONGO_MIGRATIONS } from "./mongo-migrations.js";
import { META_COLLECTION, type MetaDocument } from "./mongo-schema.js";
import type { MongoStore } from "./mongo-store-registration.js";
import { MONGO_STORES } from "./mongo-stores.js";
import { dbNameOf, describeMongoUri } from "./mongo-uri.js";
import type { UserDocument } from "./mongo-user-repository.js";

/** One index a store creates at start, by collection and name. */
export interface PlannedMongoIndex {
  collection: string;
  index: string;
}

/** What `inspectMongoStore` found, reading only. */
export interface MongoInspection {
  /** The store without credentials (`host:port/db`). */
  target: string;
  /** False when the server did not answer within the timeout (`reason` says why, without credentials). */
  reachable: boolean;
  reason?: string;
  /** The schema version the database is at (0: never started on), and the one this build migrates to. */
  schemaVersion?: number;
  latestSchemaVersion: number;
  /** The indexes this build's stores create that the database lacks. */
  missingIndexes: PlannedMongoIndex[];
  /** The stored password hashes of the asked usernames that exist (to check for known passwords). */
  passwordHashes: Record<string, string>;
}

/** What else `inspectMongoStore` reads. */
export interface MongoInspectionOptions {
  /** Server selection and connection timeout (default 3000 ms). */
  timeoutMs?: number;
  /** Usernames whose password hashes to read (the demo's users, say). */
  usernames?: readonly string[];
}

/**
 * Reads, never writes: whether the MongoDB at `uri` answers, its schema version, and which of the
 * indexes this build's stores create at start are missing. The planned indexes come from the stores'
 * own `ensureIndexes`, run against a database that records index creations instead of sending them,
 * so the list cannot drift from what a start creates. `container` supplies the ports the stores are
 * built with (a platform's, not started).
 */
export async function inspectMongoStore(
  uri: string,
  container: DependencyContainer,
  options: MongoInspectionOptions = {},
): Promise<MongoInspection> {
  const timeoutMs = options.timeoutMs ?? 3000;
  const dbName = dbNameOf(uri);
  const latestSchemaVersion = MONGO_MIGRATIONS.length;
  const target = describeMongoUri(uri, dbName);
  const planned = await plannedIndexes(container);
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: timeoutMs, connectTimeoutMS: timeoutMs });
  try {
    await client.connect();
    const db = client.db(dbName);
    await db.command({ ping: 1 });
    const meta = await db.collection<MetaDocument>(META_COLLECTION).findOne({ _id: "schema" });
    const present = await presentIndexes(db, new Set(planned.map((p) => p.collection)));
    const missingIndexes = planned.filter((p) => !present.has(`${p.collection}/${p.index}`));
    const schemaVersion = typeof meta?.version === "number" ? meta.version : 0;
    const passwordHashes = await passwordHashesOf(db, options.usernames ?? []);
    return { target, reachable: true, schemaVersion, latestSchemaVersion, missingIndexes, passwordHashes };
  } catch (error) {
    const reason = error instanceof Error ? error.name : "unknown error";
    return { target, reachable: false, reason, latestSchemaVersion, missingIndexes: [], passwordHashes: {} };
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** The indexes every store creates at start, recorded from its own `ensureIndexes`. */
async function plannedIndexes(container: DependencyContainer): Promise<PlannedMongoIndex[]> {
  const planned: PlannedMongoIndex[] = [];
  const db = recordingDb(planned);
  // Stores resolve one another (the audit sink is the audit trail): each token is built once, here.
  const child = container.createChildContainer();
  const built = new Map<unknown, MongoStore>();
  for (const { token, create } of MONGO_STORES) {
    child.register(token, {
      useFactory: (c) => {
        if (!built.has(token)) built.set(token, create(db, c));
        return built.get(token);
      },
    });
  }
  const stores = new Set(MONGO_STORES.map(({ token }) => child.resolve(token) as MongoStore));
  for (const store of stores) await store.ensureIndexes();
  return planned.filter(
    (p, i) => planned.findIndex((q) => q.collection === p.collection && q.index === p.index) === i,
  );
}

/** A Db whose collections record `createIndexes`/`createIndex` and answer nothing else. */
function recordingDb(planned: PlannedMongoIndex[]): Db {
  const collection = (name: string) =>
    new Proxy(
      {},
      {
        get: (_target, property) => {
          if (property === "createIndexes")
            return async (specs: { name?: string }[]) => {
              for (const spec of specs) if (spec.name) planned.push({ collection: name, index: spec.name });
              return [];
            };
          if (property === "createIndex")
            return async (_key: unknown, options?: { name?: string }) => {
              if (options?.name) planned.push({ collection: name, index: options.name });
              return options?.name ?? "";
            };
          if (property === "collectionName") return name;
          return () => undefined;
        },
      },
    );
  return new Proxy({}, { get: (_t, p) => (p === "collection" ? collection : () => undefined) }) as Db;
}

async function presentIndexes(db: Db, collections: ReadonlySet<string>): Promise<Set<string>> {
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  const present = new Set<string>();
  for (const name of collections) {
    if (!existing.has(name)) continue;
    for (const index of await db.collection(name).listIndexes().toArray())
      present.add(`${name}/${index.name}`);
  }
  return present;
}

async function passwordHashesOf(db: Db, usernames: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (usernames.length === 0) return out;
  const users = db.collection<UserDocument>("users");
  for (const username of usernames) {
    const doc = await users.findOne(
      { usernameKey: usernameKey(username) },
      { projection: { passwordHash: 1 } },
    );
    if (typeof doc?.passwordHash === "string") out[username] = doc.passwordHash;
  }
  return out;
}
