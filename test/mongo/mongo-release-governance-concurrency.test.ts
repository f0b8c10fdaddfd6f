import { describeReleaseGovernanceConcurrency } from "../../packages/core/src/governance/governance-concurrency.fixture.js";
import { MongoReleaseRegistry } from "../../packages/adapters-mongo/src/mongo-release-registry.js";
import { describeAgainstMongo } from "../../packages/adapters-mongo/test-support/describe-against-mongo.js";

// The release services' concurrency suite on MongoDB: parallel transitions, rollbacks and approvals
// of one scope, decided by the head's compare-and-set in the database (issue 30). The suite runs on
// the services' test harness, which is not shipped, so it runs here rather than in the adapter.
describeAgainstMongo("MongoReleaseRegistry under the release services", (freshDb) => {
  describeReleaseGovernanceConcurrency("MongoReleaseRegistry", async () => {
    const store = new MongoReleaseRegistry({ db: await freshDb() });
    await store.ensureIndexes();
    return store;
  });
});
