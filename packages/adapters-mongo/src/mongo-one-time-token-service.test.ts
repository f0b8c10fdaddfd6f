import { CryptoIdGenerator, hashOneTimeTokenValue } from "@keyward/core/adapter-kit";
import type { IdGenerator } from "@keyward/core/ports";
import { codeOf, describeOneTimeTokenServiceContract, ManualClock } from "@keyward/core/testing";
import type { Db } from "mongodb";
import { describe, expect, it } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import {
  MongoOneTimeTokenService,
  type MongoOneTimeTokenServiceOptions,
} from "./mongo-one-time-token-service.js";

describeAgainstMongo("MongoOneTimeTokenService", (freshDb) => {
  describeOneTimeTokenServiceContract("MongoOneTimeTokenService", async (clock) => {
    const service = new MongoOneTimeTokenService({
      db: await freshDb(),
      clock,
      ids: new CryptoIdGenerator(),
    });
    await service.ensureIndexes();
    return service;
  });

  describe("on MongoDB", () => {
    async function open(options: Partial<MongoOneTimeTokenServiceOptions> = {}) {
      const db: Db = options.db ?? (await freshDb());
      const clock = new ManualClock(1_000);
      const service = new MongoOneTimeTokenService({ db, clock, ids: new CryptoIdGenerator(), ...options });
      await service.ensureIndexes();
      return { db, clock, service };
    }

    it("stores the hash of a value, never the value", async () => {
      const { db, service } = await open();
      const token = await service.generate({ username: "Alice" });
      const docs = await db.collection("one_time_tokens").find({}).toArray();
      expect(JSON.stringify(docs)).not.toContain(token.getTokenValue());
      expect(docs).toEqual([
        {
          _id: "alice",
          tokens: [
            { hash: hashOneTimeTokenValue(token.getTokenValue()), username: "Alice", expiresAt: 301_000 },
          ],
          expiresAtDate: new Date(301_000),
        },
      ]);
    });

    it("keeps an account's newest maxTokensPerUser tokens: a new one evicts the oldest", async () => {
      const { service } = await open();
      const tokens = [];
      for (let i = 0; i < 4; i++) tokens.push(await service.generate({ username: "alice" }));
      expect(await service.consume({ tokenValue: tokens[0]!.getTokenValue() })).toBeUndefined();
      expect(await service.consume({ tokenValue: tokens[1]!.getTokenValue() })).toBeDefined();
    });

    it("as the password-reset service (own collection, one live link): a new link voids the previous", async () => {
      const { db, service } = await open({
        collection: "password_reset_tokens",
        ttlMs: 30 * 60_000,
        maxTokensPerUser: 1,
      });
      const first = await service.generate({ username: "alice" });
      const second = await service.generate({ username: "alice" });
      expect(second.expiresAt).toBe(1_000 + 30 * 60_000);
      expect(await db.collection("password_reset_tokens").countDocuments()).toBe(1);
      expect(await service.consume({ tokenValue: first.getTokenValue() })).toBeUndefined();
      expect((await service.consume({ tokenValue: second.getTokenValue() }))?.username).toBe("alice");
    });

    it("lets a token generated on one instance be consumed once across two instances", async () => {
      const { db, service: a } = await open();
      const { service: b } = await open({ db });
      const token = await a.generate({ username: "alice" });
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).consume({ tokenValue: token.getTokenValue() })),
      );
      expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    });

    it("burns expired tokens of several accounts without a duplicate key on the emptied documents", async () => {
      const { clock, service } = await open();
      const alice = await service.generate({ username: "alice" });
      const bob = await service.generate({ username: "bob" });
      clock.advance(5 * 60_000);
      expect(await service.consume({ tokenValue: alice.getTokenValue() })).toBeUndefined();
      expect(await service.consume({ tokenValue: bob.getTokenValue() })).toBeUndefined();
      const again = await service.generate({ username: "bob" });
      expect(await service.consume({ tokenValue: again.getTokenValue() })).toBeDefined();
    });

    it("refuses a repeated value (a broken IdGenerator) with CONFLICT instead of sharing it", async () => {
      const fixed: IdGenerator = { id: () => "id", secret: () => "A".repeat(43) };
      const { service } = await open({ ids: fixed });
      await service.generate({ username: "alice" });
      expect(await codeOf(service.generate({ username: "bob" }))).toBe("CONFLICT");
    });

    it("refuses a blank username and bad limits", async () => {
      const { db, service } = await open();
      expect(await codeOf(service.generate({ username: "  " }))).toBe("VALIDATION_FAILED");
      expect(
        () =>
          new MongoOneTimeTokenService({
            db,
            clock: new ManualClock(),
            ids: new CryptoIdGenerator(),
            ttlMs: 0,
          }),
      ).toThrow(expect.objectContaining({ code: "CONFIGURATION_INVALID" }));
    });

    it("creates its indexes idempotently", async () => {
      const { db, service } = await open();
      await service.ensureIndexes();
      const indexes = await db.collection("one_time_tokens").listIndexes().toArray();
      expect(indexes.find((i) => i.name === "tokenHash_unique")).toMatchObject({ unique: true });
      expect(indexes.find((i) => i.name === "expiresAt_ttl")).toMatchObject({ expireAfterSeconds: 0 });
    });
  });
});
