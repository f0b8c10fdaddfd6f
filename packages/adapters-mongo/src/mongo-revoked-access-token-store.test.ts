import { describeRevokedAccessTokenStoreContract, ManualClock } from "@keyward/core/testing";
import type { CommandStartedEvent } from "mongodb";
import { describe, expect, it } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoRevokedAccessTokenStore } from "./mongo-revoked-access-token-store.js";

describeAgainstMongo("MongoRevokedAccessTokenStore", (freshDb) => {
  describeRevokedAccessTokenStoreContract("MongoRevokedAccessTokenStore", async ({ clock }) => {
    const store = new MongoRevokedAccessTokenStore({ db: await freshDb(), clock });
    await store.ensureIndexes();
    return store;
  });

  describe("on MongoDB", () => {
    it("answers isRevoked with one find of one document, revoked or not", async () => {
      const db = await freshDb();
      const clock = new ManualClock();
      const store = new MongoRevokedAccessTokenStore({ db, clock });
      await store.revokeFamily("family-1", clock.now() + 1000);
      const sent: CommandStartedEvent[] = [];
      const listener = (e: CommandStartedEvent) => sent.push(e);
      db.client.on("commandStarted", listener);
      try {
        expect(await store.isRevoked("jti-1", "family-1")).toBe(true);
        expect(await store.isRevoked("jti-2", "family-2")).toBe(false);
      } finally {
        db.client.off("commandStarted", listener);
      }
      expect(sent.map((e) => e.commandName)).toEqual(["find", "find"]);
      expect(sent[0]?.command).toMatchObject({ limit: 1, singleBatch: true, projection: { _id: 1 } });
    });

    it("keeps one document per key with the later expiry as a TTL date, and indexes idempotently", async () => {
      const db = await freshDb();
      const clock = new ManualClock();
      const store = new MongoRevokedAccessTokenStore({ db, clock });
      await store.ensureIndexes();
      await store.ensureIndexes();
      await Promise.all([5000, 1000, 3000].map((ms) => store.revoke("jti-1", clock.now() + ms)));
      const docs = await db.collection("revoked_access_tokens").find().toArray();
      expect(docs).toEqual([
        { _id: "jti:jti-1", expiresAt: clock.now() + 5000, expiresAtDate: new Date(clock.now() + 5000) },
      ]);
      const ttl = (await db.collection("revoked_access_tokens").listIndexes().toArray()).find(
        (i) => i.name === "expiresAt_ttl",
      );
      expect(ttl).toMatchObject({ key: { expiresAtDate: 1 }, expireAfterSeconds: 0 });
    });
  });
});
