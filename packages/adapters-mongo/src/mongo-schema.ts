import { PlatformError } from "@keyward/core/errors";
import type { Collection, Db } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";
import type { MigrationReport, MongoMigration } from "./mongo-migrations.js";

/** The collection of the platform's own bookkeeping: the schema version and the migration lease. */
export const META_COLLECTION = "platform_meta";
const SCHEMA_ID = "schema";
const LEASE_ID = "migration-lease";

/** A `platform_meta` document: the schema version, or the lease of the instance migrating. */
export interface MetaDocument {
  _id: string;
  /** `schema`: the version the database is at. */
  version?: number;
  /** `migration-lease`: who holds it, and until when (ms since the epoch, by the platform's Clock). */
  owner?: string;
  expiresAt?: number;
  updatedAt?: Date;
}

/** Options of {@link migrateSchema}. */
export interface MigrateSchemaOptions {
  db: Db;
  migrations: readonly MongoMigration[];
  /** This instance's id in the lease (random per start). */
  owner: string;
  /** The platform Clock, in ms since the epoch. */
  now: () => number;
  /** How long a lease holds without renewal (default 60 s): a crashed instance blocks no longer. */
  leaseMs?: number;
  /** How often a waiting instance looks again (default 250 ms). */
  pollMs?: number;
  /** How long an instance waits for another's migration before it gives up (default 2 leases). */
  maxWaitMs?: number;
}

/** What {@link migrateSchema} found and did. */
export interface SchemaOutcome {
  /** The version the database was at when this instance looked first (0: none kept). */
  readonly from: number;
  readonly to: number;
  /** The versions this instance ran (empty when current, or when another instance migrated). */
  readonly ran: readonly number[];
  /** What the steps it ran reported (collisions they tolerated), by version. */
  readonly reports: readonly { readonly version: number; readonly report: MigrationReport }[];
}

/**
 * Brings the database to the newest version `migrations` knows, one instance at a time: the instance
 * that takes the lease (one `findOneAndUpdate`, which an expired lease no longer blocks) runs the
 * missing steps in order, recording the version after each and renewing its lease; the others wait
 * and then find the version current. A database at a newer version than this build knows refuses the
 * start (CONFIGURATION_INVALID): its layout may mean something this build would misread.
 */
export async function migrateSchema(options: MigrateSchemaOptions): Promise<SchemaOutcome> {
  const latest = checkedLatest(options.migrations);
  const meta = options.db.collection<MetaDocument>(META_COLLECTION);
  const leaseMs = options.leaseMs ?? 60_000;
  const deadline = Date.now() + (options.maxWaitMs ?? 2 * leaseMs);
  let from: number | undefined;
  for (;;) {
    const version = await versionOf(meta);
    from ??= version;
    if (version > latest) throw newerThanBuild(options.db.databaseName, version, latest);
    if (version === latest) return { from, to: version, ran: [], reports: [] };
    if (await takeLease(meta, options.owner, options.now(), leaseMs)) {
      try {
        const { ran, reports } = await runMissing(meta, options, leaseMs);
        return { from, to: latest, ran, reports };
      } finally {
        await meta.deleteOne({ _id: LEASE_ID, owner: options.owner });
      }
    }
    if (Date.now() > deadline) throw leaseHeldTooLong(options.db.databaseName);
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
  }
}

async function versionOf(meta: Collection<MetaDocument>): Promise<number> {
  const doc = await meta.findOne({ _id: SCHEMA_ID });
  return typeof doc?.version === "number" ? doc.version : 0;
}

/** One atomic step: the lease is ours if it is free, expired or already ours; a taken one is 11000. */
async function takeLease(
  meta: Collection<MetaDocument>,
  owner: string,
  now: number,
  leaseMs: number,
): Promise<boolean> {
  try {
    const lease = await meta.findOneAndUpdate(
      { _id: LEASE_ID, $or: [{ owner }, { expiresAt: { $lte: now } }] },
      { $set: { owner, expiresAt: now + leaseMs } },
      { upsert: true, returnDocument: "after" },
    );
    return lease?.owner === owner;
  } catch (error) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}

async function runMissing(
  meta: Collection<MetaDocument>,
  options: MigrateSchemaOptions,
  leaseMs: number,
): Promise<Pick<SchemaOutcome, "ran" | "reports">> {
  const ran: number[] = [];
  const reports: { version: number; report: MigrationReport }[] = [];
  // Read again under the lease: another instance may have finished just before we took it.
  const current = await versionOf(meta);
  for (const migration of options.migrations) {
    if (migration.version <= current) continue;
    await migration.up(options.db, (report) => reports.push({ version: migration.version, report }));
    await meta.updateOne(
      { _id: SCHEMA_ID },
      { $max: { version: migration.version }, $set: { updatedAt: new Date(options.now()) } },
      { upsert: true },
    );
    ran.push(migration.version);
    const renewed = await meta.updateOne(
      { _id: LEASE_ID, owner: options.owner },
      { $set: { expiresAt: options.now() + leaseMs } },
    );
    if (renewed.matchedCount !== 1) throw leaseLost(options.db.databaseName, migration.version);
  }
  return { ran, reports };
}

/** The newest version, after checking the list runs 1, 2, 3, … (a gap is a programming error). */
function checkedLatest(migrations: readonly MongoMigration[]): number {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        `MongoDB migrations must be numbered 1, 2, 3…; found ${m.version} at ${i + 1}`,
      );
  });
  return migrations.length;
}

function newerThanBuild(dbName: string, version: number, latest: number): PlatformError {
  return new PlatformError(
    "CONFIGURATION_INVALID",
    `MongoDB database "${dbName}" is at schema version ${version} (${META_COLLECTION}), newer than this build knows (${latest}): ` +
      "start a build at least as new as the one that migrated it, or restore a backup taken before that migration",
    { details: { collection: META_COLLECTION, version, known: latest } },
  );
}

function leaseHeldTooLong(dbName: string): PlatformError {
  return new PlatformError(
    "CONFIGURATION_INVALID",
    `MongoDB database "${dbName}": another instance has been migrating the schema for too long (lease in ${META_COLLECTION}); ` +
      "start again once it finished, or delete the migration-lease document if no instance is running",
    { details: { collection: META_COLLECTION } },
  );
}

function leaseLost(dbName: string, version: number): PlatformError {
  return new PlatformError(
    "CONFIGURATION_INVALID",
    `MongoDB database "${dbName}": the migration lease expired while version ${version} ran; start again (each step is idempotent)`,
    { details: { collection: META_COLLECTION, version } },
  );
}
