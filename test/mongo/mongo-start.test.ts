import {
  MONGO_MIGRATIONS,
  type MongoMigration,
  mongoPlugin,
  type UserDocument,
} from "@keyward/adapters-mongo";
import { startWireDouble, type WireDouble } from "@keyward/adapters-mongo/testing";
import { createPlatform, type Platform, type PlatformPlugin } from "@keyward/core";
import { Logger } from "@keyward/core/ports";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// mongoPlugin's start: connect (or fail clearly), migrate one instance at a time, create indexes (or
// name the conflict). A platform of the kernel and the plugin is enough: its stores are built at start.
let double: WireDouble;
let client: MongoClient;
let dbCount = 0;

beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  client = await new MongoClient(double.uri).connect();
});
afterAll(async () => {
  await client?.close();
  await double?.close();
});

const freshDbName = () => `start_${++dbCount}`;
const platformOn = (
  dbName: string,
  migrations?: readonly MongoMigration[],
  extra: readonly PlatformPlugin[] = [],
): Platform =>
  createPlatform({
    env: {},
    plugins: [
      mongoPlugin({ uri: `${double.uri}&serverSelectionTimeoutMS=1000`, dbName, migrations }),
      ...extra,
    ],
  });
const LATEST = MONGO_MIGRATIONS.length;

async function startError(platform: Platform): Promise<{ code?: string; message: string }> {
  const error = await platform.start().then(
    () => undefined,
    (e: unknown) => e as { code?: string; message: string },
  );
  if (!error) throw new Error("the start succeeded");
  return error;
}

describe("mongoPlugin at start", () => {
  it("refuses to start when MongoDB cannot be reached: DEPENDENCY_UNAVAILABLE naming host and database, never the password", async () => {
    const gone = await startWireDouble({ ttlMonitorIntervalMs: 0 });
    await gone.close();
    const uri = `mongodb://admin:s3cret@127.0.0.1:${gone.port}/shop?directConnection=true&serverSelectionTimeoutMS=300`;
    const platform = createPlatform({ env: {}, plugins: [mongoPlugin({ uri })] });
    const error = await startError(platform);
    expect(error.code).toBe("DEPENDENCY_UNAVAILABLE");
    expect(error.message).toContain(`MongoDB at 127.0.0.1:${gone.port}/shop cannot be reached`);
    expect(error.message).not.toMatch(/s3cret|admin/);
    expect(platform.state).toBe("stopped");
  });

  it("records the newest schema version in platform_meta on a new database, and starts again without migrating", async () => {
    const dbName = freshDbName();
    const first = platformOn(dbName);
    await first.start();
    await first.stop();
    const meta = client.db(dbName).collection<{ _id: string; version?: number }>("platform_meta");
    expect(await meta.findOne({ _id: "schema" })).toMatchObject({ version: LATEST });
    expect(await meta.countDocuments({ _id: "migration-lease" })).toBe(0);
    const again = platformOn(dbName);
    await again.start();
    await again.stop();
    expect(await meta.findOne({ _id: "schema" })).toMatchObject({ version: LATEST });
  });

  it("refuses a database at a newer schema version than this build knows", async () => {
    const dbName = freshDbName();
    await client
      .db(dbName)
      .collection<{ _id: string; version: number }>("platform_meta")
      .insertOne({ _id: "schema", version: 7 });
    const error = await startError(platformOn(dbName));
    expect(error.code).toBe("CONFIGURATION_INVALID");
    expect(error.message).toMatch(
      new RegExp(`schema version 7 .*newer than this build knows \\(${LATEST}\\)`),
    );
  });

  it("starts over stored accounts whose names look alike, and warns with their ids (migration 2)", async () => {
    const dbName = freshDbName();
    const base = { authorities: [], enabled: true, locked: false, version: 1 };
    await client
      .db(dbName)
      .collection<UserDocument>("users")
      .insertMany([
        { _id: "u-admin", username: "admin", usernameKey: "admin", createdAt: 1, ...base },
        { _id: "u-cyrillic", username: "\u0430dmin", usernameKey: "\u0430dmin", createdAt: 2, ...base },
      ]);
    await client
      .db(dbName)
      .collection("platform_meta")
      .insertOne({ _id: "schema" as never, version: 1 });
    const warnings: { message: string; fields?: Record<string, unknown> }[] = [];
    const recording: PlatformPlugin = {
      id: "recording-logger",
      register(ctx) {
        const logger = {
          info() {},
          error() {},
          warn: (message: string, fields?: Record<string, unknown>) =>
            void warnings.push({ message, fields }),
        };
        ctx.override(Logger, { useValue: logger });
      },
    };
    const platform = platformOn(dbName, undefined, [recording]);
    await platform.start();
    await platform.stop();
    expect(warnings).toEqual([
      {
        message: expect.stringMatching(
          /^MongoDB migration 2: 1 existing account\(s\) have a username that looks like/,
        ),
        fields: {
          database: dbName,
          collection: "users",
          collisions: [{ holder: "u-admin", lookalikes: ["u-cyrillic"] }],
        },
      },
    ]);
  });

  it("runs a migration once when two platforms start at once on one database", async () => {
    const dbName = freshDbName();
    let runs = 0;
    const migrations: MongoMigration[] = [
      { version: 1, description: "first", up: async () => {} },
      {
        version: 2,
        description: "counted",
        up: async (db) => {
          runs++;
          // Long enough for the other instance to find the lease taken and wait.
          await new Promise((resolve) => setTimeout(resolve, 300));
          await db
            .collection("migrated")
            .updateOne({ _id: "mark" as never }, { $inc: { n: 1 } }, { upsert: true });
        },
      },
    ];
    const a = platformOn(dbName, migrations);
    const b = platformOn(dbName, migrations);
    await Promise.all([a.start(), b.start()]);
    await Promise.all([a.stop(), b.stop()]);
    expect(runs).toBe(1);
    const db = client.db(dbName);
    expect(await db.collection("migrated").findOne({})).toMatchObject({ n: 1 });
    expect(await db.collection("platform_meta").findOne({ _id: "schema" as never })).toMatchObject({
      version: 2,
    });
  });

  it("names the collection, the index and the remedy when an index of the same name has other options", async () => {
    const dbName = freshDbName();
    await client
      .db(dbName)
      .collection("sessions")
      .createIndex({ expiresAtDate: 1 }, { name: "expiresAt_ttl", expireAfterSeconds: 3600 });
    const error = await startError(platformOn(dbName));
    expect(error.code).toBe("CONFIGURATION_INVALID");
    expect(error.message).toContain(
      'collection "sessions": index "expiresAt_ttl" conflicts with an existing index',
    );
    expect(error.message).toContain("dropIndex");
  });

  it("names the existing index when the same key is indexed under another name", async () => {
    const dbName = freshDbName();
    await client
      .db(dbName)
      .collection("users")
      .createIndex({ usernameKey: 1 }, { name: "byUsername", unique: true });
    const error = await startError(platformOn(dbName));
    expect(error.code).toBe("CONFIGURATION_INVALID");
    expect(error.message).toContain(
      'collection "users": index "byUsername" conflicts with an existing index',
    );
  });
});
