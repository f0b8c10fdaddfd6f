// Handshake, the refusal of an unknown command, BSON types round-trip, the immutable _id, catalog.
import { Binary, ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { expectServerError, freshCollection } from "./conformance-helpers.js";
import type { TargetRef } from "./describe-mongo-conformance.js";

/** Commands and catalog: what every adapter's start-up and health check send. */
export function commandConformance(ref: TargetRef): void {
  describe("commands", () => {
    serverCommandCases(ref);
    idAndCatalogCases(ref);
  });
}

/** Handshake, an unknown command, and BSON types that round-trip unchanged. */
function serverCommandCases(ref: TargetRef): void {
  it("answers hello as a writable primary and ping with ok", async () => {
    const hello = await ref().client.db("admin").command({ hello: 1 });
    expect(hello.isWritablePrimary).toBe(true);
    expect(hello.maxWireVersion).toBeGreaterThanOrEqual(9);
    expect(await ref().db.command({ ping: 1 })).toMatchObject({ ok: 1 });
    const info = await ref().client.db("admin").command({ buildInfo: 1 });
    expect(info.version).toMatch(/^\d+\.\d+/);
  });

  it("refuses an unknown command with 59 CommandNotFound", async () => {
    const error = await expectServerError(ref().db.command({ wireDoubleNoSuchCommand: 1 }), 59);
    expect(error.codeName).toBe("CommandNotFound");
  });

  it("stores and returns BSON types unchanged (ObjectId, Date, Binary, nested, arrays, null, bool)", async () => {
    const coll = freshCollection(ref, "types");
    const doc = {
      _id: new ObjectId(),
      at: new Date("2040-01-02T03:04:05.678Z"),
      hash: new Binary(Buffer.from("0102ff", "hex")),
      nested: { a: [1, "two", { three: 3 }], b: null },
      flag: false,
      big: 2 ** 40,
      ratio: 0.25,
    };
    await coll.insertOne(doc);
    expect(await coll.findOne({ _id: doc._id })).toEqual(doc);
    expect(await coll.findOne({ hash: new Binary(Buffer.from("0102ff", "hex")) })).not.toBeNull();
    expect(await coll.findOne({ at: { $gt: new Date("2040-01-01T00:00:00Z") } })).not.toBeNull();
  });
}

/** The _id's uniqueness and immutability, and the collection and database catalog. */
function idAndCatalogCases(ref: TargetRef): void {
  it("refuses a duplicate _id with 11000 on the _id_ index", async () => {
    const coll = freshCollection(ref, "dupid");
    await coll.insertOne({ _id: "same" as never });
    const error = await expectServerError(coll.insertOne({ _id: "same" as never }), 11000);
    expect(error.keyPattern).toEqual({ _id: 1 });
    expect(error.keyValue).toEqual({ _id: "same" });
  });

  it("refuses an update that changes _id with 66 ImmutableField", async () => {
    const coll = freshCollection(ref, "immutable");
    await coll.insertOne({ _id: "a" as never, n: 1 });
    await expectServerError(coll.updateOne({ _id: "a" as never }, { $set: { _id: "b" as never } }), 66);
    await expectServerError(coll.replaceOne({ _id: "a" as never }, { _id: "b" as never, n: 2 }), 66);
    const same = await coll.updateOne({ _id: "a" as never }, { $set: { _id: "a" as never, n: 1 } });
    expect(same).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    expect(await coll.findOne({ _id: "a" as never })).toEqual({ _id: "a", n: 1 });
  });

  it("lists, creates and drops collections", async () => {
    const coll = freshCollection(ref, "catalog");
    await coll.insertOne({ x: 1 });
    const names = (await ref().db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(names).toContain(coll.collectionName);
    const filtered = await ref().db.listCollections({ name: coll.collectionName }).toArray();
    expect(filtered.map((c) => c.name)).toEqual([coll.collectionName]);
    expect(await coll.drop()).toBe(true);
    expect(await ref().db.listCollections({ name: coll.collectionName }).toArray()).toEqual([]);
    expect(await coll.countDocuments()).toBe(0);
    const created = await ref().db.createCollection(`${coll.collectionName}_explicit`);
    await expectServerError(ref().db.createCollection(created.collectionName), 48);
  });

  it("creates a collection on a first write or upsert, not on an update or delete that matches nothing", async () => {
    const coll = freshCollection(ref, "implicit");
    expect(await coll.updateOne({ a: 1 }, { $set: { b: 1 } })).toMatchObject({ matchedCount: 0 });
    expect(await coll.findOneAndUpdate({ a: 1 }, { $set: { b: 1 } })).toBeNull();
    expect(await coll.findOneAndDelete({ a: 1 })).toBeNull();
    expect((await coll.deleteMany({})).deletedCount).toBe(0);
    expect(await ref().db.listCollections({ name: coll.collectionName }).toArray()).toEqual([]);
    await coll.updateOne({ a: 1 }, { $set: { b: 1 } }, { upsert: true });
    expect(await ref().db.listCollections({ name: coll.collectionName }).toArray()).toHaveLength(1);
  });

  it("drops a whole database", async () => {
    const other = ref().client.db(`${ref().db.databaseName}_drop`);
    await other.collection("a").insertOne({ x: 1 });
    await other.collection("b").insertOne({ x: 1 });
    expect(await other.dropDatabase()).toBe(true);
    expect(await other.listCollections().toArray()).toEqual([]);
  });
}
