import { CryptoIdGenerator, SystemClock } from "@keyward/core/adapter-kit";
import { describeUserRepositoryContract } from "@keyward/core/testing";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoUserRepository } from "./mongo-user-repository.js";

describeAgainstMongo("MongoUserRepository", (freshDb) => {
  describeUserRepositoryContract("MongoUserRepository", async () => {
    const repo = new MongoUserRepository({
      db: await freshDb(),
      ids: new CryptoIdGenerator(),
      clock: new SystemClock(),
    });
    await repo.ensureIndexes();
    return repo;
  });
});
