import { describeChangeCountersContract } from "@keyward/core/testing";
import { type Db, MongoServerError } from "mongodb";
import { describe, expect, it, onTestFinished } from "vitest";
import { countCommands } from "../test-support/command-counter.js";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { secondInstanceDb } from "../test-support/store-test-clients.js";
import { MongoChangeCounters } from "./mongo-change-counters.js";

describeAgainstMongo("MongoChangeCounters", (freshDb) => {
  describeChangeCountersContract("MongoChangeCounters", async () => {
    const counters = new MongoChangeCounters({ db: await freshDb() });
    await counters.ensureIndexes();
    return counters;
  });

  describe("on MongoDB", () => {
    it("bumps with one command and reads any number of topics with one (none for no topic)", async () => {
      const db = await freshDb();
      const counters = new MongoChangeCounters({ db });
      const commands = countCommands(db.client);
      onTestFinished(commands.stop);
      expect(await commands.during(() => counters.bump("a"))).toEqual(["findAndModify"]);
      expect(await commands.during(() => counters.bump("a"))).toEqual(["findAndModify"]);
      const topics = Array.from({ length: 150 }, (_, i) => `t${i}`);
      expect(await commands.during(() => counters.read(["a", ...topics]))).toEqual(["find"]);
      expect(await commands.during(() => counters.read([]))).toEqual([]);
      expect(await db.collection("platform_change_counters").find().toArray()).toEqual([
        { _id: "a", count: 2 },
      ]);
    });

    it("counts every bump of two instances on their own clients", async () => {
      const db = await freshDb();
      const other = await secondInstanceDb(db);
      try {
        const a = new MongoChangeCounters({ db });
        const b = new MongoChangeCounters({ db: other.db });
        const bumps = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).bump("standing:u-1"));
        const values = await Promise.all(bumps);
        expect(new Set(values).size).toBe(10);
        expect(await b.read(["standing:u-1"])).toEqual({ "standing:u-1": 10 });
      } finally {
        await other.close();
      }
    });
  });
});

// Two first bumps of a topic racing to insert its document: a real server may answer the loser with
// a duplicate key (the wire double runs commands one at a time, so the race is staged here).
describe("MongoChangeCounters: the racing first bump", () => {
  const duplicateKey = () =>
    new MongoServerError({ message: "E11000 duplicate key error", code: 11000, codeName: "DuplicateKey" });

  const dbAnswering = (answers: (() => unknown)[]) => {
    const calls: unknown[] = [];
    const collection = {
      findOneAndUpdate: async (...args: unknown[]) => {
        calls.push(args);
        return answers[calls.length - 1]!();
      },
    };
    return { db: { collection: () => collection } as unknown as Db, calls };
  };

  it("sends the bump once more after a duplicate key, and counts on the document the other inserted", async () => {
    const { db, calls } = dbAnswering([
      () => {
        throw duplicateKey();
      },
      () => ({ _id: "t", count: 2 }),
    ]);
    expect(await new MongoChangeCounters({ db }).bump("t")).toBe(2);
    expect(calls).toHaveLength(2);
  });

  it("gives up after one retry, and lets any other driver error through for the outage translator", async () => {
    const twice = dbAnswering([
      () => {
        throw duplicateKey();
      },
      () => {
        throw duplicateKey();
      },
    ]);
    await expect(new MongoChangeCounters({ db: twice.db }).bump("t")).rejects.toMatchObject({ code: 11000 });
    const other = dbAnswering([
      () => {
        throw new MongoServerError({ message: "not primary", code: 10107 });
      },
    ]);
    await expect(new MongoChangeCounters({ db: other.db }).bump("t")).rejects.toMatchObject({ code: 10107 });
    expect(other.calls).toHaveLength(1);
  });
});
