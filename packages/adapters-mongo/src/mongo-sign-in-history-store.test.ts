import { describeSignInHistoryStoreContract, ManualClock } from "@keyward/core/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { countCommands } from "../test-support/command-counter.js";
import { secondInstanceDb } from "../test-support/store-test-clients.js";
import { MongoSignInHistoryStore } from "./mongo-sign-in-history-store.js";

describeAgainstMongo("MongoSignInHistoryStore", (freshDb) => {
  describeSignInHistoryStoreContract("MongoSignInHistoryStore", async (clock) => {
    const store = new MongoSignInHistoryStore({ db: await freshDb(), clock });
    await store.ensureIndexes();
    return store;
  });

  describe("on MongoDB", () => {
    const T0 = Date.UTC(2026, 0, 1, 9, 30);
    const success = { userId: "u1", remoteAddress: "203.0.113.7", deviceId: "d1", at: T0 };

    it("sends one command per read and per write, and counts what every instance records", async () => {
      const clock = new ManualClock(T0);
      const db = await freshDb();
      const commands = countCommands(db.client);
      onTestFinished(commands.stop);
      const other = await secondInstanceDb(db);
      try {
        const a = new MongoSignInHistoryStore({ db, clock });
        const b = new MongoSignInHistoryStore({ db: other.db, clock });
        expect(await commands.during(() => a.recordSuccess(success))).toEqual(["update"]);
        expect(await commands.during(() => a.recordFailure({ userId: "u1", at: T0 }))).toEqual(["update"]);
        expect(await commands.during(() => a.historyOf("u1"))).toEqual(["find"]);
        await Promise.all([
          b.recordSuccess({ ...success, deviceId: "d2" }),
          a.recordSuccess({ ...success, deviceId: "d3" }),
          b.recordFailure({ userId: "u2", at: T0 }),
          a.recordFailure({ userId: "u2", at: T0 }),
        ]);
        expect(await b.historyOf("u1")).toMatchObject({ signInCount: 3, recentFailures: 0 });
        expect([...(await b.historyOf("u1")).knownDevices].sort()).toEqual(["d1", "d2", "d3"]);
        expect((await a.historyOf("u2")).recentFailures).toBe(2);
      } finally {
        await other.close();
      }
    });

    it("reads a device pushed twice by racing sign-ins once, and heals on the next sign-in", async () => {
      const clock = new ManualClock(T0);
      const db = await freshDb();
      const store = new MongoSignInHistoryStore({ db, clock });
      await store.recordSuccess({ ...success, deviceId: "d2" });
      await db
        .collection("sign_in_history")
        .updateOne({ _id: "u1" as never }, { $set: { devices: ["d1", "d2", "d1"] } });
      expect((await store.historyOf("u1")).knownDevices).toEqual(["d1", "d2"]);
      await store.recordSuccess(success);
      const doc = await db.collection("sign_in_history").findOne({ _id: "u1" as never });
      expect(doc?.devices).toEqual(["d1", "d2"]);
    });
  });
});
