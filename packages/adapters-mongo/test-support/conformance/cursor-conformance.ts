// Reads: sort, skip, limit, projection, and cursors that span several batches.
import { describe, expect, it } from "vitest";
import { expectServerError, freshCollection } from "./conformance-helpers.js";
import type { TargetRef } from "./describe-mongo-conformance.js";

/** Reads as the adapters issue them. */
export function cursorConformance(ref: TargetRef): void {
  describe("reads and cursors", () => {
    it("sorts, skips, limits and projects", async () => {
      const coll = freshCollection(ref, "select");
      await coll.insertMany(Array.from({ length: 10 }, (_, i) => ({ i, g: i % 2, sq: i * i, tag: "t" })));
      const page = await coll
        .find({ tag: "t" })
        .sort({ i: -1 })
        .skip(2)
        .limit(3)
        .project({ _id: 0, i: 1 })
        .toArray();
      expect(page).toEqual([{ i: 7 }, { i: 6 }, { i: 5 }]);
      const excluded = await coll.find({ i: 3 }, { projection: { _id: 0, sq: 0, tag: 0 } }).toArray();
      expect(excluded).toEqual([{ i: 3, g: 1 }]);
      const compound = await coll
        .find({ i: { $lt: 4 } })
        .sort({ g: 1, i: -1 })
        .project({ _id: 0, i: 1 })
        .toArray();
      expect(compound).toEqual([{ i: 2 }, { i: 0 }, { i: 3 }, { i: 1 }]);
      expect(await coll.findOne({ i: { $gt: 4 } }, { sort: { i: 1 }, projection: { _id: 0, i: 1 } })).toEqual(
        { i: 5 },
      );
    });

    it("matches missing and null alike, and array elements", async () => {
      const coll = freshCollection(ref, "nulls");
      await coll.insertMany([{ k: 1, v: null }, { k: 2 }, { k: 3, v: 0 }, { k: 4, v: [5, 6] }]);
      const keys = async (filter: object) =>
        (await coll.find(filter).sort({ k: 1 }).toArray()).map((d) => d.k);
      expect(await keys({ v: null })).toEqual([1, 2]);
      expect(await keys({ v: { $exists: false } })).toEqual([2]);
      expect(await keys({ v: 6 })).toEqual([4]);
      expect(await keys({ v: { $in: [0, 5] } })).toEqual([3, 4]);
    });

    it("returns every document of a cursor across getMore batches", async () => {
      const coll = freshCollection(ref, "batches");
      await coll.insertMany(Array.from({ length: 25 }, (_, i) => ({ i })));
      let docs: { i: number }[] = [];
      const sent = await ref().commandsDuring(async () => {
        docs = (await coll.find({}).sort({ i: 1 }).batchSize(5).toArray()) as never;
      });
      expect(docs.map((d) => d.i)).toEqual(Array.from({ length: 25 }, (_, i) => i));
      const getMores = sent.filter((c) => c === "getMore").length;
      expect(getMores).toBeGreaterThanOrEqual(4);
      expect(getMores).toBeLessThanOrEqual(5);
      expect(sent).not.toContain("killCursors");
    });

    it("stops at the limit across batches", async () => {
      const coll = freshCollection(ref, "limited");
      await coll.insertMany(Array.from({ length: 30 }, (_, i) => ({ i })));
      let n = 0;
      const sent = await ref().commandsDuring(async () => {
        n = (await coll.find({}).limit(12).batchSize(5).toArray()).length;
      });
      expect(n).toBe(12);
      expect(sent.filter((c) => c === "getMore").length).toBe(2);
      const agg = await coll.aggregate([{ $sort: { i: -1 } }, { $limit: 10 }], { batchSize: 3 }).toArray();
      expect(agg.map((d) => d.i)).toEqual([29, 28, 27, 26, 25, 24, 23, 22, 21, 20]);
    });

    it("kills a cursor closed early; a getMore on it is 43 CursorNotFound", async () => {
      const coll = freshCollection(ref, "killed");
      await coll.insertMany(Array.from({ length: 10 }, (_, i) => ({ i })));
      const cursor = coll.find({}).batchSize(2);
      await cursor.next();
      const id = cursor.id;
      expect(id?.isZero()).toBe(false);
      const sent = await ref().commandsDuring(() => cursor.close());
      expect(sent).toEqual(["killCursors"]);
      await expectServerError(ref().db.command({ getMore: id, collection: coll.collectionName }), 43);
    });
  });
}
