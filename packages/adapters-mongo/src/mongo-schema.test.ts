import type { Db } from "mongodb";
import { expect, it } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import type { MongoMigration } from "./mongo-migrations.js";
import { type MetaDocument, META_COLLECTION, migrateSchema } from "./mongo-schema.js";

const counted = (runs: number[]): MongoMigration[] => [
  { version: 1, description: "first", up: async () => void runs.push(1) },
  { version: 2, description: "second", up: async () => void runs.push(2) },
];

describeAgainstMongo("migrateSchema", (freshDb) => {
  const meta = (db: Db) => db.collection<MetaDocument>(META_COLLECTION);
  const now = Date.parse("2040-01-01T00:00:00Z");

  it("runs the missing steps in order, records the version and frees the lease", async () => {
    const db = await freshDb();
    await meta(db).insertOne({ _id: "schema", version: 1 });
    const runs: number[] = [];
    const outcome = await migrateSchema({ db, migrations: counted(runs), owner: "a", now: () => now });
    expect(outcome).toEqual({ from: 1, to: 2, ran: [2], reports: [] });
    expect(runs).toEqual([2]);
    expect(await meta(db).findOne({ _id: "schema" })).toMatchObject({ version: 2 });
    expect(await meta(db).findOne({ _id: "migration-lease" })).toBeNull();
  });

  it("takes over a lease a crashed instance left behind once it expired", async () => {
    const db = await freshDb();
    await meta(db).insertOne({ _id: "migration-lease", owner: "crashed", expiresAt: now - 1 });
    const runs: number[] = [];
    const outcome = await migrateSchema({ db, migrations: counted(runs), owner: "b", now: () => now });
    expect(outcome.ran).toEqual([1, 2]);
  });

  it("waits for a lease another instance holds, and gives up clearly when it is held too long", async () => {
    const db = await freshDb();
    await meta(db).insertOne({ _id: "migration-lease", owner: "busy", expiresAt: now + 60_000 });
    const runs: number[] = [];
    const error = await migrateSchema({
      db,
      migrations: counted(runs),
      owner: "c",
      now: () => now,
      pollMs: 20,
      maxWaitMs: 100,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "CONFIGURATION_INVALID" });
    expect((error as Error).message).toContain("another instance has been migrating");
    expect(runs).toEqual([]);
  });

  it("returns what a step reports, by version, and still records the version", async () => {
    const db = await freshDb();
    const report = { message: "two lookalikes kept", details: { ids: ["a", "b"] } };
    const migrations: MongoMigration[] = [
      { version: 1, description: "first", up: async () => {} },
      { version: 2, description: "reports", up: async (_db, found) => found(report) },
    ];
    const outcome = await migrateSchema({ db, migrations, owner: "r", now: () => now });
    expect(outcome.reports).toEqual([{ version: 2, report }]);
    expect(await meta(db).findOne({ _id: "schema" })).toMatchObject({ version: 2 });
  });

  it("refuses a list with a gap", async () => {
    const db = await freshDb();
    const gap: MongoMigration[] = [{ version: 2, description: "gap", up: async () => {} }];
    await expect(migrateSchema({ db, migrations: gap, owner: "d", now: () => now })).rejects.toMatchObject({
      code: "CONFIGURATION_INVALID",
    });
  });
});
