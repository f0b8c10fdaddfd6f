import { describeReleaseEvidenceLedgerContract } from "@keyward/core/testing";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoReleaseEvidenceLedger } from "./mongo-release-evidence-ledger.js";

describeAgainstMongo("MongoReleaseEvidenceLedger", (freshDb) => {
  describeReleaseEvidenceLedgerContract("MongoReleaseEvidenceLedger", async () => {
    const store = new MongoReleaseEvidenceLedger({ db: await freshDb() });
    await store.ensureIndexes();
    return store;
  });
});
