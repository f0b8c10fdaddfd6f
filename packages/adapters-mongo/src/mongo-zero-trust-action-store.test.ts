import { describeZeroTrustActionStoreContract, ManualClock } from "@keyward/core/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { countCommands } from "../test-support/command-counter.js";
import { secondInstanceDb } from "../test-support/store-test-clients.js";
import { MongoZeroTrustActionStore } from "./mongo-zero-trust-action-store.js";

describeAgainstMongo("MongoZeroTrustActionStore", (freshDb) => {
  describeZeroTrustActionStoreContract("MongoZeroTrustActionStore", async (clock) => {
    const store = new MongoZeroTrustActionStore({ db: await freshDb(), clock });
    await store.ensureIndexes();
    return store;
  });

  describe("on MongoDB", () => {
    const block = { subject: "user:u-1", action: "BLOCK", source: "admin" } as const;

    it("answers a lookup with one command, and a put of a new or live subject with one", async () => {
      const clock = new ManualClock(50_000);
      const db = await freshDb();
      const commands = countCommands(db.client);
      onTestFinished(commands.stop);
      const store = new MongoZeroTrustActionStore({ db, clock });
      await store.ensureIndexes();
      expect(await commands.during(() => store.put(block, 1_000))).toEqual(["findAndModify"]);
      expect(await commands.during(() => store.put(block, 1_000))).toEqual(["findAndModify"]);
      expect(await commands.during(() => store.get("user:u-1"))).toEqual(["find"]);
      expect(await commands.during(() => store.get("user:nobody"))).toEqual(["find"]);
    });

    it("restarts at version 1 over an expired document the TTL monitor has not removed yet", async () => {
      const clock = new ManualClock(50_000);
      const db = await freshDb();
      const store = new MongoZeroTrustActionStore({ db, clock });
      await store.ensureIndexes();
      await store.put(block, 1_000);
      await store.put(block, 1_000);
      clock.advance(1_000);
      expect(await db.collection("zero_trust_actions").countDocuments()).toBe(1);
      expect(await store.put({ ...block, action: "ALLOW" }, 1_000)).toMatchObject({
        action: "ALLOW",
        version: 1,
      });
      expect(await store.get("user:u-1")).toMatchObject({ action: "ALLOW", version: 1 });
    });

    it("shows a verdict written by one instance to another at once (no process-local cache)", async () => {
      const clock = new ManualClock(50_000);
      const db = await freshDb();
      const other = await secondInstanceDb(db);
      try {
        const a = new MongoZeroTrustActionStore({ db, clock });
        const b = new MongoZeroTrustActionStore({ db: other.db, clock });
        await a.ensureIndexes();
        expect(await b.get("user:u-1")).toBeUndefined();
        const put = await a.put(block, 60_000);
        expect(await b.get("user:u-1")).toEqual(put);
        const results = await Promise.all([a.put(block, 60_000), b.put(block, 60_000)]);
        expect(results.map((r) => r.version).sort()).toEqual([2, 3]);
        expect(await b.delete("user:u-1")).toBe(true);
        expect(await a.get("user:u-1")).toBeUndefined();
      } finally {
        await other.close();
      }
    });
  });
});
