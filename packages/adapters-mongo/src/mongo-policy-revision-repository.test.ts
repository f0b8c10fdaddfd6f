import { describePolicyRevisionRepositoryContract } from "@keyward/core/testing";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoPolicyRevisionRepository } from "./mongo-policy-revision-repository.js";

describeAgainstMongo("MongoPolicyRevisionRepository", (freshDb) => {
  describePolicyRevisionRepositoryContract("MongoPolicyRevisionRepository", async () => {
    const store = new MongoPolicyRevisionRepository({ db: await freshDb() });
    await store.ensureIndexes();
    return store;
  });
});
