import { describeManagedResourceRepositoryContract, ManualClock } from "@keyward/core/testing";
import { CryptoIdGenerator } from "@keyward/core/adapter-kit";
import { describe, expect, it } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { secondInstanceDb } from "../test-support/store-test-clients.js";
import { MongoManagedResourceRepository } from "./mongo-managed-resource-repository.js";

describeAgainstMongo("MongoManagedResourceRepository", (freshDb) => {
  describeManagedResourceRepositoryContract("MongoManagedResourceRepository", async (clock) => {
    const store = new MongoManagedResourceRepository({
      db: await freshDb(),
      clock,
      ids: new CryptoIdGenerator(),
    });
    await store.ensureIndexes();
    return store;
  });

  describe("on MongoDB", () => {
    const resource = {
      resourceIdentifier: "/api/orders",
      resourceType: "URL",
      httpMethod: "GET",
      friendlyName: "listOrders",
      description: "URL: [GET] /api/orders",
      serviceOwner: "orders",
      status: "NEEDS_DEFINITION",
      editedFields: [],
      named: false,
    } as const;

    it("keeps the key unique across instances: of two syncs creating one resource, one wins", async () => {
      const db = await freshDb();
      const other = await secondInstanceDb(db);
      try {
        const clock = new ManualClock(1);
        const a = new MongoManagedResourceRepository({ db, clock, ids: new CryptoIdGenerator() });
        const b = new MongoManagedResourceRepository({ db: other.db, clock, ids: new CryptoIdGenerator() });
        await a.ensureIndexes();
        const results = await Promise.allSettled([a.create(resource), b.create(resource)]);
        expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
        expect((await b.findAll()).length).toBe(1);
      } finally {
        await other.close();
      }
    });

    it("stores no driver types and no search copies in what it returns", async () => {
      const store = new MongoManagedResourceRepository({
        db: await freshDb(),
        clock: new ManualClock(1),
        ids: new CryptoIdGenerator(),
      });
      await store.ensureIndexes();
      const created = await store.create(resource);
      expect(Object.keys(created).sort()).toEqual(
        [...Object.keys(resource), "id", "createdAt", "updatedAt", "version"].sort(),
      );
    });
  });
});
