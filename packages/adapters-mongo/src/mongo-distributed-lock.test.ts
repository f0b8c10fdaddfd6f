import { describeDistributedLockContract, ManualClock } from "@keyward/core/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { countCommands } from "../test-support/command-counter.js";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { secondInstanceDb } from "../test-support/store-test-clients.js";
import { LOCK_HOUSEKEEPING_GRACE_SECONDS, MongoDistributedLock } from "./mongo-distributed-lock.js";

const T0 = Date.UTC(2026, 0, 1);
const LOCK = "platform.inspection-round";

describeAgainstMongo("MongoDistributedLock", (freshDb) => {
  describeDistributedLockContract("MongoDistributedLock", async (clock) => {
    const lock = new MongoDistributedLock({ db: await freshDb(), clock });
    await lock.ensureIndexes();
    return lock;
  });

  describe("on MongoDB", () => {
    const setup = async () => {
      const clock = new ManualClock(T0);
      const db = await freshDb();
      const lock = new MongoDistributedLock({ db, clock });
      await lock.ensureIndexes();
      return { clock, db, lock };
    };

    it("decides an acquire, granted or refused, with one command, and a release with one", async () => {
      const { db, lock } = await setup();
      const commands = countCommands(db.client);
      onTestFinished(commands.stop);
      expect(await commands.during(() => lock.tryAcquire(LOCK, "a", 1_000))).toEqual(["findAndModify"]);
      expect(await commands.during(() => lock.tryAcquire(LOCK, "a", 1_000))).toEqual(["findAndModify"]);
      expect(await commands.during(() => lock.tryAcquire(LOCK, "b", 1_000))).toEqual(["findAndModify"]);
      expect(await commands.during(() => lock.release(LOCK, "a"))).toEqual(["delete"]);
    });

    it("keeps one document per name, with the Clock's expiry and its Date for the housekeeping TTL index", async () => {
      const { clock, db, lock } = await setup();
      await lock.tryAcquire(LOCK, "a", 1_000);
      clock.advance(1_000);
      await lock.tryAcquire(LOCK, "b", 2_000);
      expect(await db.collection("platform_locks").find().toArray()).toEqual([
        { _id: LOCK, owner: "b", expiresAt: T0 + 3_000, expiresAtDate: new Date(T0 + 3_000) },
      ]);
      const indexes = await db.collection("platform_locks").listIndexes().toArray();
      expect(indexes.find((i) => i.name === "lapsed_ttl")).toMatchObject({
        key: { expiresAtDate: 1 },
        expireAfterSeconds: LOCK_HOUSEKEEPING_GRACE_SECONDS,
      });
    });

    it("takes over a lapsed lease whose document is still there (the TTL monitor only cleans up)", async () => {
      const { clock, db, lock } = await setup();
      await lock.tryAcquire(LOCK, "crashed", 1_000);
      clock.advance(1_000);
      expect(await db.collection("platform_locks").countDocuments()).toBe(1);
      expect(await lock.tryAcquire(LOCK, "b", 1_000)).toEqual({
        name: LOCK,
        owner: "b",
        expiresAt: T0 + 2_000,
      });
    });

    it("grants a free lock to exactly one of two instances racing on their own clients", async () => {
      const clock = new ManualClock(T0);
      const db = await freshDb();
      const other = await secondInstanceDb(db);
      try {
        const a = new MongoDistributedLock({ db, clock });
        const b = new MongoDistributedLock({ db: other.db, clock });
        await a.ensureIndexes();
        const tries = ["a1", "b1", "a2", "b2", "a3", "b3"].map((owner) =>
          (owner.startsWith("a") ? a : b).tryAcquire(LOCK, owner, 60_000),
        );
        const granted = (await Promise.all(tries)).filter((g) => g !== undefined);
        expect(granted).toHaveLength(1);
        const winner = granted[0]!.owner;
        expect(await (winner.startsWith("a") ? b : a).release(LOCK, winner)).toBe(true);
        expect(await b.tryAcquire(LOCK, "b9", 60_000)).toMatchObject({ owner: "b9" });
      } finally {
        await other.close();
      }
    });
  });
});
