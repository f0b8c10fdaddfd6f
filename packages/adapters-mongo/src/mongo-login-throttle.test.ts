import { throttleKeys } from "@keyward/core/adapter-kit";
import { describeLoginThrottleContract, ManualClock } from "@keyward/core/testing";
import type { Db } from "mongodb";
import { describe, expect, it } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoLoginThrottle } from "./mongo-login-throttle.js";

const LIMITS = { maxFailuresPerAccountAndIp: 3, maxFailuresPerIp: 5, windowMs: 60_000 };
const alice = { username: "alice", remoteAddress: "203.0.113.10" };

describeAgainstMongo("MongoLoginThrottle", (freshDb) => {
  describeLoginThrottleContract("MongoLoginThrottle", async (clock, limits) => {
    const throttle = new MongoLoginThrottle({ db: await freshDb(), clock, ...limits });
    await throttle.ensureIndexes();
    return throttle;
  });

  describe("on MongoDB", () => {
    async function twoInstances() {
      const db: Db = await freshDb();
      const clock = new ManualClock(1_000);
      const [a, b] = [
        new MongoLoginThrottle({ db, clock, ...LIMITS }),
        new MongoLoginThrottle({ db, clock, ...LIMITS }),
      ];
      await a.ensureIndexes();
      return { db, clock, a, b };
    }

    it("shares counts and lock-outs between instances over one database", async () => {
      const { a, b } = await twoInstances();
      await Promise.all([a.recordFailure(alice), b.recordFailure(alice), a.recordFailure(alice)]);
      expect(await b.check(alice)).toMatchObject({ allowed: false, scope: "account-ip" });
      await a.recordSuccess(alice);
      expect(await b.check(alice)).toEqual({ allowed: true });
    });

    it("stores hashed keys only, and restarts a window its TTL monitor has not removed yet", async () => {
      const { db, clock, a } = await twoInstances();
      await a.recordFailure(alice);
      await a.recordFailure(alice);
      const docs = await db.collection("login_throttle_counters").find({}).toArray();
      expect(JSON.stringify(docs)).not.toContain("alice");
      expect(JSON.stringify(docs)).not.toContain("203.0.113.10");
      const pairId = throttleKeys(alice).accountAndIp;
      expect(docs.find((d) => d._id === (pairId as never))).toMatchObject({
        count: 2,
        windowEnd: new Date(61_000),
      });
      clock.advance(60_000);
      await a.recordFailure(alice);
      const pair = await db.collection("login_throttle_counters").findOne({ _id: pairId as never });
      expect(pair).toMatchObject({
        count: 1,
        windowEnd: new Date(121_000),
        account: throttleKeys(alice).account,
      });
    });

    it("creates its indexes idempotently", async () => {
      const { db, a } = await twoInstances();
      await a.ensureIndexes();
      const indexes = await db.collection("login_throttle_counters").listIndexes().toArray();
      expect(indexes.find((i) => i.name === "windowEnd_ttl")).toMatchObject({ expireAfterSeconds: 0 });
      expect(indexes.find((i) => i.name === "account_sparse")).toMatchObject({ sparse: true });
    });
  });
});
