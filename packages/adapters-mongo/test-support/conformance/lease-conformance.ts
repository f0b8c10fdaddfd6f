// Leases and counters on one document each, decided by one upsert: what the DistributedLock (and the
// schema migration lease) and the ChangeCounters stores rest on.
import { MongoServerError } from "mongodb";
import { describe, expect, it } from "vitest";
import { expectServerError, freshCollection } from "./conformance-helpers.js";
import type { TargetRef } from "./describe-mongo-conformance.js";

interface Lease {
  _id: string;
  owner: string;
  expiresAt: number;
}

/** The `{ _id, $or }` lease upsert and the `$inc` counter upsert, as the adapters send them. */
export function leaseConformance(ref: TargetRef): void {
  describe("leases and counters (upserts on _id)", () => {
    const take = (coll: ReturnType<typeof freshCollection<Lease>>, owner: string, now: number) =>
      coll.findOneAndUpdate(
        { _id: "l", $or: [{ owner }, { expiresAt: { $lte: now } }] },
        { $set: { owner, expiresAt: now + 10 } },
        { upsert: true, returnDocument: "after" },
      );

    it("inserts a free lease seeded with _id only, renews the owner's, takes over a lapsed one", async () => {
      const coll = freshCollection<Lease>(ref, "lease");
      expect(await take(coll, "a", 100)).toEqual({ _id: "l", owner: "a", expiresAt: 110 });
      expect(await take(coll, "a", 105)).toEqual({ _id: "l", owner: "a", expiresAt: 115 });
      expect(await take(coll, "b", 115)).toEqual({ _id: "l", owner: "b", expiresAt: 125 });
      expect(await coll.countDocuments()).toBe(1);
    });

    it("answers a live lease of another owner with 11000 on _id and changes nothing", async () => {
      const coll = freshCollection<Lease>(ref, "lease_held");
      await take(coll, "a", 100);
      const error = await expectServerError(take(coll, "b", 105), 11000);
      expect(error.keyValue).toEqual({ _id: "l" });
      expect(await coll.findOne({ _id: "l" })).toEqual({ _id: "l", owner: "a", expiresAt: 110 });
    });

    it("lets exactly one of many owners on two clients take a lapsed lease", async () => {
      const coll = freshCollection<Lease>(ref, "lease_race");
      await coll.insertOne({ _id: "l", owner: "crashed", expiresAt: 50 });
      const other = (await ref().newClient())
        .db(ref().db.databaseName)
        .collection<Lease>(coll.collectionName);
      const attempts = Array.from({ length: 10 }, (_, i) =>
        take(i % 2 === 0 ? coll : other, `o${i}`, 100).catch((e: unknown) => {
          if (e instanceof MongoServerError && e.code === 11000) return null;
          throw e;
        }),
      );
      const winners = (await Promise.all(attempts)).filter((r) => r !== null);
      expect(winners).toHaveLength(1);
      expect(await coll.findOne({ _id: "l" })).toEqual(winners[0]);
    });

    it("counts with a $inc upsert on _id: 1 for the inserted document, then 2, 3", async () => {
      const coll = freshCollection<{ _id: string; count: number }>(ref, "counter");
      const bump = () =>
        coll.findOneAndUpdate(
          { _id: "t" },
          { $inc: { count: 1 } },
          { upsert: true, returnDocument: "after" },
        );
      expect(await bump()).toEqual({ _id: "t", count: 1 });
      expect(await bump()).toEqual({ _id: "t", count: 2 });
      expect((await bump())?.count).toBe(3);
    });
  });
}
