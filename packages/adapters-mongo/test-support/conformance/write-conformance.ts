// Writes and counts: update operators, upserts, deletes, countDocuments and the aggregation stages.
import { MongoBulkWriteError } from "mongodb";
import { describe, expect, it } from "vitest";
import { freshCollection } from "./conformance-helpers.js";
import type { TargetRef } from "./describe-mongo-conformance.js";

interface Ops {
  _id: string;
  n: number;
  gone?: number;
  fresh?: number;
  tags: string[];
  low: number;
  high: number;
  deep?: { x: number };
}

/** Writes as the adapters issue them. */
export function writeConformance(ref: TargetRef): void {
  describe("writes", () => {
    updateCases(ref);
    bulkAndCountCases(ref);
  });
}

/** Update operators, matched versus modified, updateMany and deletes, and upserts. */
function updateCases(ref: TargetRef): void {
  it("applies $set $unset $inc $push $pull $addToSet $min $max", async () => {
    const coll = freshCollection<Ops>(ref, "operators");
    await coll.insertOne({ _id: "d", n: 5, gone: 1, tags: ["a"], low: 10, high: 10 });
    const r = await coll.updateOne(
      { _id: "d" },
      { $set: { "deep.x": 1 }, $unset: { gone: "" }, $inc: { n: 2, fresh: 1 }, $push: { tags: "b" } },
    );
    expect(r).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    await coll.updateOne({ _id: "d" }, { $addToSet: { tags: "a" }, $min: { low: 3 }, $max: { high: 20 } });
    await coll.updateOne({ _id: "d" }, { $pull: { tags: "a" } });
    expect(await coll.findOne({ _id: "d" })).toEqual({
      _id: "d",
      n: 7,
      tags: ["b"],
      low: 3,
      high: 20,
      deep: { x: 1 },
      fresh: 1,
    });
  });

  it("counts an update that changes nothing as matched, not modified", async () => {
    const coll = freshCollection(ref, "noop");
    await coll.insertOne({ k: 1, v: "same" });
    expect(await coll.updateOne({ k: 1 }, { $set: { v: "same" } })).toMatchObject({
      matchedCount: 1,
      modifiedCount: 0,
    });
    expect(await coll.updateOne({ k: 2 }, { $set: { v: "x" } })).toMatchObject({
      matchedCount: 0,
      modifiedCount: 0,
    });
  });

  it("updates many, and deletes one or many", async () => {
    const coll = freshCollection(ref, "many");
    await coll.insertMany([{ g: 1 }, { g: 1 }, { g: 2 }, { g: 2 }, { g: 2 }]);
    expect(await coll.updateMany({ g: 2 }, { $set: { seen: true } })).toMatchObject({
      matchedCount: 3,
      modifiedCount: 3,
    });
    expect(await coll.countDocuments({ seen: true })).toBe(3);
    expect((await coll.deleteOne({ g: 2 })).deletedCount).toBe(1);
    expect((await coll.deleteMany({ g: { $in: [1, 2] } })).deletedCount).toBe(4);
    expect((await coll.deleteMany({})).deletedCount).toBe(0);
  });

  it("upserts from the filter's equalities, with $setOnInsert only on insert", async () => {
    const coll = freshCollection(ref, "upsert");
    const first = await coll.updateOne(
      { key: "k1", "scope.tenant": "t" },
      { $inc: { hits: 1 }, $setOnInsert: { createdAt: new Date(0) } },
      { upsert: true },
    );
    expect(first.upsertedCount).toBe(1);
    expect(first.upsertedId).not.toBeNull();
    const second = await coll.updateOne(
      { key: "k1", "scope.tenant": "t" },
      { $inc: { hits: 1 }, $setOnInsert: { createdAt: new Date(1) } },
      { upsert: true },
    );
    expect(second).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
    const doc = await coll.findOne({ key: "k1" }, { projection: { _id: 0 } });
    expect(doc).toEqual({ key: "k1", scope: { tenant: "t" }, hits: 2, createdAt: new Date(0) });
    const replaced = await coll.replaceOne({ _id: "fixed" as never }, { v: 1 }, { upsert: true });
    expect(replaced.upsertedId).toBe("fixed");
  });
}

/** insertMany ordered and unordered, counts and aggregation. */
function bulkAndCountCases(ref: TargetRef): void {
  it("stops an ordered insertMany at a duplicate and goes on when unordered", async () => {
    const coll = freshCollection(ref, "ordered");
    const docs = [{ _id: 1 }, { _id: 1 }, { _id: 2 }] as never[];
    const ordered = await coll.insertMany(docs).catch((e: unknown) => e);
    expect(ordered).toBeInstanceOf(MongoBulkWriteError);
    expect(await coll.countDocuments()).toBe(1);
    await coll.deleteMany({});
    const unordered = await coll.insertMany(docs, { ordered: false }).catch((e: unknown) => e);
    expect((unordered as MongoBulkWriteError).code).toBe(11000);
    expect(await coll.countDocuments()).toBe(2);
  });

  it("counts with countDocuments (skip, limit) and estimatedDocumentCount", async () => {
    const coll = freshCollection(ref, "count");
    await coll.insertMany(Array.from({ length: 7 }, (_, i) => ({ i })));
    expect(await coll.countDocuments({ i: { $gte: 2 } })).toBe(5);
    expect(await coll.countDocuments({}, { skip: 2, limit: 3 })).toBe(3);
    expect(await coll.estimatedDocumentCount()).toBe(7);
    expect(await freshCollection(ref, "empty").countDocuments()).toBe(0);
  });

  it("aggregates with $match $group $sort $skip $limit $project $count", async () => {
    const coll = freshCollection(ref, "agg");
    await coll.insertMany([
      { user: "a", kind: "login" },
      { user: "a", kind: "login" },
      { user: "b", kind: "login" },
      { user: "c", kind: "logout" },
    ]);
    const grouped = await coll
      .aggregate([
        { $match: { kind: "login" } },
        { $group: { _id: "$user", n: { $sum: 1 } } },
        { $sort: { n: -1, _id: 1 } },
        { $skip: 0 },
        { $limit: 5 },
        { $project: { _id: 0, user: "$_id", n: 1 } },
      ])
      .toArray();
    expect(grouped).toEqual([
      { n: 2, user: "a" },
      { n: 1, user: "b" },
    ]);
    expect(await coll.aggregate([{ $match: { kind: "login" } }, { $count: "total" }]).toArray()).toEqual([
      { total: 3 },
    ]);
  });
}
