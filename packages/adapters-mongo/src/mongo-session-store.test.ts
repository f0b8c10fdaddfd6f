import { describeSessionStoreContract } from "@platform/core/testing";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoSessionStore } from "./mongo-session-store.js";

describeAgainstMongo("MongoSessionStore", (freshDb) => {
  describeSessionStoreContract("MongoSessionStore", async (clock) => {
    const store = new MongoSessionStore({ db: await freshDb(), clock });
    await store.ensureIndexes();
    return store;
  });
});
