import { describeOttGenerationLimiterContract, ManualClock } from "@keyward/core/testing";
import type { Db } from "mongodb";
import { describe, expect, it } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoOttGenerationLimiter } from "./mongo-ott-generation-limiter.js";

const LIMITS = { maxPerUser: 3, maxPerIp: 5, windowMs: 60_000 };

describeAgainstMongo("MongoOttGenerationLimiter", (freshDb) => {
  describeOttGenerationLimiterContract("MongoOttGenerationLimiter", async (clock, limits) => {
    const limiter = new MongoOttGenerationLimiter({ db: await freshDb(), clock, ...limits });
    await limiter.ensureIndexes();
    return limiter;
  });

  describe("on MongoDB", () => {
    async function twoInstances() {
      const db: Db = await freshDb();
      const clock = new ManualClock(1_000);
      const a = new MongoOttGenerationLimiter({ db, clock, ...LIMITS });
      const b = new MongoOttGenerationLimiter({ db, clock, ...LIMITS });
      await a.ensureIndexes();
      return { db, clock, a, b };
    }

    it("allows exactly the limit across two instances racing over one database", async () => {
      const { a, b } = await twoInstances();
      const verdicts = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 ? a : b).acquire({ username: "alice", remoteAddress: `192.0.2.${i + 1}` }),
        ),
      );
      expect(verdicts.filter((v) => v.allowed)).toHaveLength(LIMITS.maxPerUser);
    });

    it("leaves no window behind for a refused request, and stores no plain username", async () => {
      const { db, a } = await twoInstances();
      for (let i = 0; i < LIMITS.maxPerIp; i++)
        await a.acquire({ username: `user${i}`, remoteAddress: "203.0.113.7" });
      expect(await a.acquire({ username: "alice", remoteAddress: "203.0.113.7" })).toMatchObject({
        scope: "ip",
      });
      const docs = await db.collection("ott_generation_counters").find({}).toArray();
      expect(docs).toHaveLength(LIMITS.maxPerIp + 1);
      expect(JSON.stringify(docs)).not.toMatch(/alice|user0|203\.0\.113\.7/);
    });

    it("opens a new window over an ended one the TTL monitor has not removed yet", async () => {
      const { db, clock, a } = await twoInstances();
      for (let i = 0; i < LIMITS.maxPerUser; i++)
        await a.acquire({ username: "alice", remoteAddress: `192.0.2.${i}` });
      clock.advance(LIMITS.windowMs);
      expect(await a.acquire({ username: "alice", remoteAddress: "192.0.2.1" })).toEqual({ allowed: true });
      const counts = (
        await db
          .collection("ott_generation_counters")
          .find({ count: 1, windowEnd: new Date(121_000) })
          .toArray()
      ).length;
      expect(counts).toBe(2);
    });
  });
});
