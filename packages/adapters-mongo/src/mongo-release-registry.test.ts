import { describeReleaseRegistryContract } from "@keyward/core/testing";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoReleaseRegistry } from "./mongo-release-registry.js";

describeAgainstMongo("MongoReleaseRegistry", (freshDb) => {
  describeReleaseRegistryContract("MongoReleaseRegistry", async () => {
    const store = new MongoReleaseRegistry({ db: await freshDb() });
    await store.ensureIndexes();
    return store;
  });
});
