import { hashRefreshToken } from "@keyward/core/adapter-kit";
import type { NewRefreshTokenRecord } from "@keyward/core/ports";
import { describeRefreshTokenStoreContract, ManualClock } from "@keyward/core/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { countCommands } from "../test-support/command-counter.js";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoRefreshTokenStore } from "./mongo-refresh-token-store.js";

function record(
  clock: ManualClock,
  n: number,
  over: Partial<NewRefreshTokenRecord> = {},
): NewRefreshTokenRecord {
  return {
    id: `rt-${n}`,
    tokenHash: hashRefreshToken(`token-${n}`),
    familyId: "family-1",
    userId: "user-1",
    authentication: {
      username: "alice",
      authorities: ["ROLE_USER"],
      method: "rest",
      authenticatedAt: clock.now(),
      factors: [{ type: "pwd", at: clock.now() }],
    },
    expiresAt: clock.now() + 3_600_000,
    ...over,
  };
}

describeAgainstMongo("MongoRefreshTokenStore", (freshDb) => {
  describeRefreshTokenStoreContract("MongoRefreshTokenStore", async ({ clock }) => {
    const store = new MongoRefreshTokenStore({ db: await freshDb(), clock });
    await store.ensureIndexes();
    return store;
  });

  describe("on MongoDB", () => {
    const setup = async () => {
      const db = await freshDb();
      const clock = new ManualClock();
      const store = new MongoRefreshTokenStore({ db, clock });
      await store.ensureIndexes();
      return { db, clock, store };
    };

    it("stores the hash it is given and nothing of the token, with a TTL date", async () => {
      const { db, clock, store } = await setup();
      await store.create(record(clock, 1));
      const doc = await db.collection("refresh_tokens").findOne({ _id: "rt-1" as never });
      expect(doc?.tokenHash).toBe(hashRefreshToken("token-1"));
      expect(JSON.stringify(doc)).not.toContain("token-1");
      expect(doc?.expiresAtDate).toEqual(new Date(clock.now() + 3_600_000));
    });

    it("creates its indexes idempotently: unique hash, family, user, TTL", async () => {
      const { db, store } = await setup();
      await store.ensureIndexes();
      const indexes = await db.collection("refresh_tokens").listIndexes().toArray();
      expect(indexes.map((i) => i.name).sort()).toEqual(
        ["_id_", "expiresAt_ttl", "familyId", "tokenHash_unique", "userId"].sort(),
      );
      expect(indexes.find((i) => i.name === "tokenHash_unique")?.unique).toBe(true);
      expect(indexes.find((i) => i.name === "expiresAt_ttl")?.expireAfterSeconds).toBe(0);
    });

    it("rotates with one command; two stores racing on one token have one winner", async () => {
      const { db, clock, store } = await setup();
      const commands = countCommands(db.client);
      onTestFinished(commands.stop);
      const created = await store.create(record(clock, 1));
      const other = new MongoRefreshTokenStore({ db, clock });
      let outcomes: string[] = [];
      const sent = await commands.during(async () => {
        const results = await Promise.all([
          store.rotate(created.tokenHash, 5000),
          other.rotate(created.tokenHash, 5000),
        ]);
        outcomes = results.map((r) => r.outcome).sort();
      });
      expect(outcomes).toEqual(["raced", "rotated"]);
      // The winner's one findAndModify; the loser's findAndModify and one read.
      expect(sent.sort()).toEqual(["find", "findAndModify", "findAndModify"]);
      expect(await commands.during(() => store.findByHash(created.tokenHash))).toEqual(["find"]);
    });

    it("lets an expired record not yet removed by the TTL monitor give way to a new one", async () => {
      const { clock, store } = await setup();
      const old = await store.create(record(clock, 1, { expiresAt: clock.now() + 10 }));
      clock.advance(10);
      const again = await store.create(record(clock, 1));
      expect(again).toMatchObject({ id: old.id, status: "active", version: 1 });
      expect(await store.findByHash(old.tokenHash)).toEqual(again);
    });
  });
});
