import { describeMfaLockoutsContract, ManualClock } from "@keyward/core/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { countCommands } from "../test-support/command-counter.js";
import { secondInstanceDb } from "../test-support/store-test-clients.js";
import { MongoMfaLockouts } from "./mongo-mfa-lockouts.js";

describeAgainstMongo("MongoMfaLockouts", (freshDb) => {
  describeMfaLockoutsContract("MongoMfaLockouts", async (clock) => {
    const store = new MongoMfaLockouts({ db: await freshDb(), clock });
    await store.ensureIndexes();
    return store;
  });

  describe("on MongoDB", () => {
    it("shares counts and locks between two instances: of their concurrent attempts exactly max are taken", async () => {
      const clock = new ManualClock();
      const db = await freshDb();
      const other = await secondInstanceDb(db);
      try {
        const a = new MongoMfaLockouts({ db, clock });
        const b = new MongoMfaLockouts({ db: other.db, clock });
        await a.ensureIndexes();
        const answers = await Promise.all(
          Array.from({ length: 9 }, (_, i) => (i % 2 ? a : b).reserveAttempt("alice", 1, 6, 60_000)),
        );
        const taken = answers.flatMap((x) => ("failures" in x ? [x.failures] : []));
        expect(taken.sort()).toEqual([1, 2, 3, 4, 5, 6]);
        expect(await b.lockedUntil("alice")).toBe(clock.now() + 60_000);
        await b.unlock("alice");
        expect(await a.lockedUntil("alice")).toBeUndefined();
      } finally {
        await other.close();
      }
    });

    it("sends one command per lookup and per counted attempt", async () => {
      const clock = new ManualClock();
      const db = await freshDb();
      const commands = countCommands(db.client);
      onTestFinished(commands.stop);
      const store = new MongoMfaLockouts({ db, clock });
      await store.ensureIndexes();
      const attempt = () => store.reserveAttempt("alice", 1, 3, 60_000);
      expect(await commands.during(attempt)).toEqual(["findAndModify"]);
      expect(await commands.during(attempt)).toEqual(["findAndModify"]);
      expect(await commands.during(() => store.lockedUntil("alice"))).toEqual(["find"]);
      expect(await commands.during(() => store.lock("bob", clock.now() + 1))).toEqual(["update"]);
    });

    it("keeps the lock document until the later of lock and window, as a Date the TTL index reads", async () => {
      const clock = new ManualClock();
      const db = await freshDb();
      const store = new MongoMfaLockouts({ db, clock });
      await store.ensureIndexes();
      await store.reserveAttempt("alice", 1, 3, 60_000);
      await store.lock("alice", clock.now() + 30_000);
      const doc = await db.collection("mfa_lockouts").findOne({ _id: "alice" as never });
      expect(doc?.expiresAtDate).toEqual(new Date(clock.now() + 60_000));
      await store.lock("alice", clock.now() + 90_000);
      const later = await db.collection("mfa_lockouts").findOne({ _id: "alice" as never });
      expect(later?.expiresAtDate).toEqual(new Date(clock.now() + 90_000));
      const indexes = await db.collection("mfa_lockouts").listIndexes().toArray();
      expect(indexes.find((i) => i.name === "expiresAt_ttl")).toMatchObject({ expireAfterSeconds: 0 });
      await store.ensureIndexes();
    });
  });
});
