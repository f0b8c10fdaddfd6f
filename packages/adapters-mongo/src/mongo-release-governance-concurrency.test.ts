import { describeReleaseGovernanceConcurrency } from "@keyward/core/testing";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoReleaseRegistry } from "./mongo-release-registry.js";

// The release services' concurrency suite on MongoDB: parallel transitions, rollbacks and approvals
// of one scope, decided by the head's compare-and-set in the database (issue 30).
describeAgainstMongo("MongoReleaseRegistry under the release services", (freshDb) => {
  describeReleaseGovernanceConcurrency("MongoReleaseRegistry", async () => {
    const store = new MongoReleaseRegistry({ db: await freshDb() });
    await store.ensureIndexes();
    return store;
  });
});
