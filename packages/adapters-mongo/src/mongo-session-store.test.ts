import { describeSessionStoreContract, ManualClock } from "@keyward/core/testing";
import { describe, expect, it } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoSessionStore } from "./mongo-session-store.js";

describeAgainstMongo("MongoSessionStore", (freshDb) => {
  describeSessionStoreContract("MongoSessionStore", async (clock) => {
    const store = new MongoSessionStore({ db: await freshDb(), clock });
    await store.ensureIndexes();
    return store;
  });

  describe("at rest", () => {
    it("never stores the session id (the cookie's value), only its SHA-256", async () => {
      const db = await freshDb();
      const clock = new ManualClock();
      const store = new MongoSessionStore({ db, clock });
      const id = "a-session-id-that-is-a-bearer-secret";
      const now = clock.now();
      await store.save({ id, data: { n: 1 }, createdAt: now, lastAccessedAt: now, expiresAt: now + 60_000 });
      const docs = await db.collection("sessions").find({}).toArray();
      expect(docs).toHaveLength(1);
      expect(JSON.stringify(docs)).not.toContain(id);
      // Presenting what the database holds opens nothing.
      expect(await store.get(String(docs[0]!._id))).toBeUndefined();
      expect((await store.get(id))?.data).toEqual({ n: 1 });
    });
  });
});
