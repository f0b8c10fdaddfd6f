import { describeWebAuthnChallengeStoreContract, ManualClock } from "@keyward/core/testing";
import { describe, expect, it } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoWebAuthnChallengeStore } from "./mongo-webauthn-challenge-store.js";

describeAgainstMongo("MongoWebAuthnChallengeStore", (freshDb) => {
  describeWebAuthnChallengeStoreContract("MongoWebAuthnChallengeStore", async (clock) => {
    const store = new MongoWebAuthnChallengeStore({ db: await freshDb(), clock });
    await store.ensureIndexes();
    return store;
  });

  describe("on MongoDB", () => {
    it("keeps a Date copy of the expiry under a TTL index, created idempotently", async () => {
      const db = await freshDb();
      const store = new MongoWebAuthnChallengeStore({ db, clock: new ManualClock(1_000) });
      await store.ensureIndexes();
      await store.ensureIndexes();
      const ttl = (await db.collection("webauthn_challenges").listIndexes().toArray()).find(
        (i) => i.name === "expiresAt_ttl",
      );
      expect(ttl).toMatchObject({ key: { expiresAtDate: 1 }, expireAfterSeconds: 0 });
      await store.save({ id: "c1", challenge: "Y2g", purpose: "authentication", expiresAt: 2_000 });
      const doc = await db.collection("webauthn_challenges").findOne({ _id: "c1" as never });
      expect(doc?.expiresAtDate).toEqual(new Date(2_000));
    });

    it("gives a challenge to one of two stores over one database, and refuses a duplicate id", async () => {
      const db = await freshDb();
      const clock = new ManualClock(1_000);
      const [a, b] = [
        new MongoWebAuthnChallengeStore({ db, clock }),
        new MongoWebAuthnChallengeStore({ db, clock }),
      ];
      await a.save({ id: "c1", challenge: "Y2g", purpose: "registration", userId: "u1", expiresAt: 2_000 });
      await expect(
        b.save({ id: "c1", challenge: "b3Ro", purpose: "registration", expiresAt: 2_000 }),
      ).rejects.toMatchObject({ code: "CONFLICT" });
      const taken = await Promise.all([a.take("c1", "registration"), b.take("c1", "registration")]);
      expect(taken.filter((t) => t !== undefined)).toEqual([
        { id: "c1", challenge: "Y2g", purpose: "registration", userId: "u1", expiresAt: 2_000 },
      ]);
    });
  });
});
