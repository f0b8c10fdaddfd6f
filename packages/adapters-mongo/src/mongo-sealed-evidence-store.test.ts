import { describeSealedEvidenceStoreContract } from "@keyward/core/testing";
import { describe, expect, it } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoSealedEvidenceStore } from "./mongo-sealed-evidence-store.js";

describeAgainstMongo("MongoSealedEvidenceStore", (freshDb) => {
  describeSealedEvidenceStoreContract("MongoSealedEvidenceStore", async () => {
    const store = new MongoSealedEvidenceStore({ db: await freshDb() });
    await store.ensureIndexes();
    return store;
  });

  describe("the sealed evidence collections", () => {
    it("holds the indexes every operation reads through, created idempotently", async () => {
      const db = await freshDb();
      const store = new MongoSealedEvidenceStore({ db });
      await store.ensureIndexes();
      await store.ensureIndexes();
      const names = async (c: string) => (await db.collection(c).listIndexes().toArray()).map((i) => i.name);
      expect(await names("sealed_evidence_chain")).toEqual([
        "_id_",
        "instanceId_sequence",
        "packageId",
        "header_at_packageId",
        "header_userId",
      ]);
      expect(await names("sealed_evidence_checkpoints")).toEqual(["_id_", "instanceId_sequence"]);
      expect(await names("security_decision_records")).toEqual(["_id_", "at_order"]);
    });
  });
});
