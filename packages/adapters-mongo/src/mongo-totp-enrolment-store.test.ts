import { describeTotpEnrolmentStoreContract } from "@keyward/core/testing";
import { describe, expect, it } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { secondInstanceDb } from "../test-support/store-test-clients.js";
import { MongoTotpEnrolmentStore } from "./mongo-totp-enrolment-store.js";

describeAgainstMongo("MongoTotpEnrolmentStore", (freshDb) => {
  describeTotpEnrolmentStoreContract("MongoTotpEnrolmentStore", async () => {
    const store = new MongoTotpEnrolmentStore({ db: await freshDb() });
    await store.ensureIndexes();
    return store;
  });

  describe("on MongoDB", () => {
    it("lets one of two instances' concurrent claims of a step win, and keeps no secret in the clear", async () => {
      const db = await freshDb();
      const other = await secondInstanceDb(db);
      try {
        const a = new MongoTotpEnrolmentStore({ db });
        const b = new MongoTotpEnrolmentStore({ db: other.db });
        await a.begin({ userId: "alice", sealedSecret: "sealed:v1:xyz", createdAt: 1 });
        expect(await b.confirm("alice", "sealed:v1:xyz", 100)).toBe(true);
        const wins = await Promise.all(
          Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).claimStep("alice", 101)),
        );
        expect(wins.filter(Boolean)).toHaveLength(1);
        const doc = await db.collection("totp_enrolments").findOne({ _id: "alice" as never });
        expect(doc).toMatchObject({ sealedSecret: "sealed:v1:xyz", confirmed: true, lastStep: 101 });
      } finally {
        await other.close();
      }
    });
  });
});
