// Compare-and-set and single-use consumption through findAndModify: what every invariant of the
// adapters rests on without transactions.
import { describe, expect, it } from "vitest";
import { freshCollection } from "./conformance-helpers.js";
import type { TargetRef } from "./describe-mongo-conformance.js";

interface Flow {
  _id: string;
  version: number;
  state: string;
  by?: string;
}

/** findOneAndUpdate / findOneAndDelete as the adapters use them. */
export function casConformance(ref: TargetRef): void {
  describe("compare-and-set (findAndModify)", () => {
    casRaceCases(ref);
    casAnswerCases(ref);
  });
}

/** Concurrent writers: exactly one compare-and-set wins, a single-use document is consumed once. */
function casRaceCases(ref: TargetRef): void {
  it("lets exactly one of two concurrent version CAS win", async () => {
    const coll = freshCollection<Flow>(ref, "cas");
    await coll.insertOne({ _id: "f", version: 1, state: "A" });
    const attempt = (by: string) =>
      coll.findOneAndUpdate(
        { _id: "f", version: 1 },
        { $set: { state: "B", by }, $inc: { version: 1 } },
        { returnDocument: "after" },
      );
    const results = await Promise.all([attempt("x"), attempt("y")]);
    const winners = results.filter((r) => r !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ version: 2, state: "B" });
    expect(await coll.findOne({ _id: "f" })).toEqual(winners[0]);
  });

  it("lets exactly one of many contenders on two clients win a state transition", async () => {
    const coll = freshCollection<Flow>(ref, "cas2");
    await coll.insertOne({ _id: "g", version: 7, state: "PENDING" });
    const other = (await ref().newClient()).db(ref().db.databaseName).collection<Flow>(coll.collectionName);
    const attempts = Array.from({ length: 10 }, (_, i) =>
      (i % 2 === 0 ? coll : other).findOneAndUpdate(
        { _id: "g", state: "PENDING" },
        { $set: { state: i % 3 === 0 ? "APPROVED" : "REJECTED", by: `c${i}` }, $inc: { version: 1 } },
        { returnDocument: "after" },
      ),
    );
    const winners = (await Promise.all(attempts)).filter((r) => r !== null);
    expect(winners).toHaveLength(1);
    expect(await coll.findOne({ _id: "g" })).toEqual(winners[0]);
    expect(winners[0]?.version).toBe(8);
  });

  it("consumes a single-use document exactly once (findOneAndDelete)", async () => {
    const coll = freshCollection(ref, "consume");
    await coll.insertOne({ token: "t1", principal: "alice" });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => coll.findOneAndDelete({ token: "t1" })),
    );
    const got = results.filter((r) => r !== null);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ token: "t1", principal: "alice" });
    expect(await coll.countDocuments()).toBe(0);
  });
}

/** What findAndModify answers: the document before or after, projected, sorted, upserted. */
function casAnswerCases(ref: TargetRef): void {
  it("returns the document before or after, projected, and null when nothing matches", async () => {
    const coll = freshCollection<Flow>(ref, "returns");
    await coll.insertOne({ _id: "h", version: 1, state: "A" });
    const before = await coll.findOneAndUpdate(
      { _id: "h" },
      { $inc: { version: 1 } },
      { projection: { version: 1 } },
    );
    expect(before).toEqual({ _id: "h", version: 1 });
    const after = await coll.findOneAndUpdate(
      { _id: "h" },
      { $inc: { version: 1 } },
      { returnDocument: "after", projection: { _id: 0, state: 1 } },
    );
    expect(after).toEqual({ state: "A" });
    expect(await coll.findOneAndUpdate({ _id: "h", version: 1 }, { $set: { state: "Z" } })).toBeNull();
    const meta = await coll.findOneAndUpdate(
      { _id: "nope" },
      { $set: { state: "Z" } },
      { includeResultMetadata: true },
    );
    expect(meta.value).toBeNull();
    expect(meta.lastErrorObject).toMatchObject({ n: 0, updatedExisting: false });
  });

  it("picks the first document of the sort, and upserts", async () => {
    const coll = freshCollection(ref, "sorted");
    await coll.insertMany([
      { q: "jobs", at: 3 },
      { q: "jobs", at: 1 },
      { q: "jobs", at: 2 },
    ]);
    const oldest = await coll.findOneAndDelete({ q: "jobs" }, { sort: { at: 1 } });
    expect(oldest).toMatchObject({ at: 1 });
    const claimed = await coll.findOneAndUpdate(
      { q: "jobs" },
      { $set: { taken: true } },
      { sort: { at: -1 } },
    );
    expect(claimed).toMatchObject({ at: 3 });
    const upserted = await coll.findOneAndUpdate(
      { q: "lock", owner: null },
      { $set: { owner: "me" }, $setOnInsert: { created: 1 } },
      { upsert: true, returnDocument: "after", includeResultMetadata: true },
    );
    expect(upserted.value).toMatchObject({ q: "lock", owner: "me", created: 1 });
    expect(upserted.lastErrorObject).toMatchObject({ n: 1, updatedExisting: false });
    expect(upserted.lastErrorObject?.upserted).toEqual(upserted.value?._id);
  });
}
