// Indexes: unique and partial-unique semantics, idempotent creation, conflicts, TTL expiry.
import { type IndexDescription, MongoServerError } from "mongodb";
import { describe, expect, it } from "vitest";
import { expectServerError, freshCollection } from "./conformance-helpers.js";
import type { TargetRef } from "./describe-mongo-conformance.js";
import { SERVER_TTL_WAIT_MS } from "./mongo-target.js";

/** The index semantics adapters rely on for "at most one" and for expiry. */
export function indexConformance(ref: TargetRef): void {
  describe("indexes", () => {
    uniqueIndexCases(ref);
    indexCatalogCases(ref);
  });
}

/** Unique indexes: simple, compound and partial, on every write path. */
function uniqueIndexCases(ref: TargetRef): void {
  it("refuses a duplicate on a unique index with 11000, keyPattern and keyValue, on every write path", async () => {
    const coll = freshCollection(ref, "unique");
    expect(await coll.createIndex({ email: 1 }, { unique: true })).toBe("email_1");
    await coll.insertMany([{ email: "a@x" }, { email: "b@x" }]);
    const error = await expectServerError(coll.insertOne({ email: "a@x" }), 11000);
    expect(error.keyPattern).toEqual({ email: 1 });
    expect(error.keyValue).toEqual({ email: "a@x" });
    expect(error.message).toMatch(/E11000 duplicate key error.*index: email_1/);
    await expectServerError(coll.updateOne({ email: "b@x" }, { $set: { email: "a@x" } }), 11000);
    await expectServerError(coll.findOneAndUpdate({ email: "b@x" }, { $set: { email: "a@x" } }), 11000);
    await expectServerError(
      coll.updateOne({ other: 1 }, { $set: { email: "a@x" } }, { upsert: true }),
      11000,
    );
    expect(await coll.countDocuments()).toBe(2);
    await coll.insertOne({ name: "no email" });
    const missing = await expectServerError(coll.insertOne({ name: "no email either" }), 11000);
    expect(missing.keyValue).toEqual({ email: null });
  });

  it("keys a compound unique index on every field", async () => {
    const coll = freshCollection(ref, "compound");
    await coll.createIndex({ tenant: 1, name: 1 }, { unique: true });
    await coll.insertMany([
      { tenant: "t1", name: "n" },
      { tenant: "t2", name: "n" },
    ]);
    const error = await expectServerError(coll.insertOne({ tenant: "t1", name: "n" }), 11000);
    expect(error.keyValue).toEqual({ tenant: "t1", name: "n" });
  });

  it("holds a partial unique index only inside its filter", async () => {
    const coll = freshCollection(ref, "partial");
    await coll.createIndex({ userId: 1 }, { unique: true, partialFilterExpression: { active: true } });
    await coll.insertMany([
      { userId: "u", active: false },
      { userId: "u", active: false },
      { userId: "u", active: true },
    ]);
    await expectServerError(coll.insertOne({ userId: "u", active: true }), 11000);
    await expectServerError(coll.updateOne({ active: false }, { $set: { active: true } }), 11000);
    expect(await coll.updateOne({ active: true }, { $set: { touched: 1 } })).toMatchObject({
      modifiedCount: 1,
    });
    await coll.updateOne({ active: true }, { $set: { active: false } });
    expect(await coll.updateOne({ active: false }, { $set: { active: true } })).toMatchObject({
      modifiedCount: 1,
    });
    expect(await coll.countDocuments({ active: true })).toBe(1);
  });
}

/** Creating, listing and conflicting indexes, and duplicates reported with their key. */
function indexCatalogCases(ref: TargetRef): void {
  it("creates indexes idempotently and lists their options", async () => {
    const coll = freshCollection(ref, "idempotent");
    const specs: IndexDescription[] = [
      { key: { a: 1 }, name: "a_1", unique: true },
      { key: { b: 1 }, name: "b_partial", unique: true, partialFilterExpression: { live: true } },
      { key: { until: 1 }, name: "until_ttl", expireAfterSeconds: 60 },
    ];
    await coll.createIndexes(specs);
    await coll.createIndexes(specs);
    expect(await coll.createIndex({ a: 1 }, { unique: true })).toBe("a_1");
    const listed = await coll.listIndexes().toArray();
    expect(listed.map((i) => i.name).sort()).toEqual(["_id_", "a_1", "b_partial", "until_ttl"]);
    expect(listed.find((i) => i.name === "a_1")).toMatchObject({ key: { a: 1 }, unique: true });
    expect(listed.find((i) => i.name === "b_partial")).toMatchObject({
      partialFilterExpression: { live: true },
    });
    expect(listed.find((i) => i.name === "until_ttl")).toMatchObject({ expireAfterSeconds: 60 });
  });

  it("refuses a conflicting index: same name, other options → 85; same name, other key → 86", async () => {
    const coll = freshCollection(ref, "conflict");
    await coll.createIndex({ a: 1 }, { name: "idx", unique: true });
    const options = await expectServerError(coll.createIndex({ a: 1 }, { name: "idx" }), 85);
    expect(options.codeName).toBe("IndexOptionsConflict");
    const keys = await expectServerError(coll.createIndex({ b: 1 }, { name: "idx" }), 86);
    expect(keys.codeName).toBe("IndexKeySpecsConflict");
    await coll.createIndex({ t: 1 }, { expireAfterSeconds: 60 });
    await expectServerError(coll.createIndex({ t: 1 }, { expireAfterSeconds: 120 }), 85);
  });

  it("refuses a unique index over duplicate data with 11000 and does not create it", async () => {
    const coll = freshCollection(ref, "dupdata");
    await coll.insertMany([{ k: 1 }, { k: 1 }]);
    await expectServerError(coll.createIndex({ k: 1 }, { unique: true }), 11000);
    expect((await coll.listIndexes().toArray()).map((i) => i.name)).toEqual(["_id_"]);
  });

  it(
    "expires documents whose TTL date has passed, and only those",
    async () => {
      const coll = freshCollection(ref, "ttl");
      await coll.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
      await coll.createIndex({ createdAt: 1 }, { expireAfterSeconds: 3600 });
      const now = Date.now();
      await coll.insertMany([
        { k: "past", expiresAt: new Date(now - 60_000) },
        { k: "future", expiresAt: new Date(now + 3_600_000) },
        { k: "not a date", expiresAt: "2000-01-01" },
        { k: "no field" },
        { k: "old", createdAt: new Date(now - 2 * 3_600_000) },
        { k: "recent", createdAt: new Date(now - 600_000) },
        { k: "past in array", expiresAt: [new Date(now + 3_600_000), new Date(now - 60_000)] },
      ]);
      await ref().awaitTtl(async () => (await coll.countDocuments()) === 4);
      const left = (await coll.find({}).toArray()).map((d) => d.k).sort();
      expect(left).toEqual(["future", "no field", "not a date", "recent"]);
    },
    SERVER_TTL_WAIT_MS + 15_000,
  );

  it("reports a duplicate from findOneAndUpdate as a MongoServerError with the key", async () => {
    const coll = freshCollection(ref, "famdup");
    await coll.createIndex(
      { family: 1, current: 1 },
      { unique: true, partialFilterExpression: { current: true } },
    );
    await coll.insertMany([
      { family: "f", current: true, n: 1 },
      { family: "f", current: false, n: 2 },
    ]);
    const error = await coll.findOneAndUpdate({ n: 2 }, { $set: { current: true } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect((error as MongoServerError).code).toBe(11000);
    expect((error as MongoServerError).keyValue).toEqual({ family: "f", current: true });
  });
}
