import { codeOf, describeReleaseRegistryContract } from "@keyward/core/testing";
import { describe, expect, it } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoReleaseRegistry, RELEASE_HEAD_VALIDATOR } from "./mongo-release-registry.js";

const SCOPE = "PLATFORM_GLOBAL";
const release = (promptVersion: string, status: string) => ({
  registryScope: SCOPE,
  promptKey: "security-decision",
  templateKey: "default",
  promptVersion,
  status,
});

describeAgainstMongo("MongoReleaseRegistry", (freshDb) => {
  describeReleaseRegistryContract("MongoReleaseRegistry", async () => {
    const store = new MongoReleaseRegistry({ db: await freshDb() });
    await store.ensureIndexes();
    return store;
  });

  describe("the release_heads collection", () => {
    it("is created with its validator, so the database itself refuses two ACTIVE releases of one template", async () => {
      const db = await freshDb();
      const store = new MongoReleaseRegistry({ db });
      await store.ensureIndexes();
      await store.ensureIndexes(); // a second start (or instance) finds the collection there
      const [listed] = await db.listCollections({ name: "release_heads" }).toArray();
      expect((listed as { options?: object }).options).toEqual({ validator: RELEASE_HEAD_VALIDATOR });
      const heads = db.collection<{ _id: string }>("release_heads");
      const twoActive = {
        _id: SCOPE,
        revision: 1,
        releases: [release("v19", "ACTIVE"), release("v20", "ACTIVE")],
      };
      await expect(heads.insertOne(twoActive)).rejects.toMatchObject({ code: 121 });
      expect(await store.head(SCOPE)).toMatchObject({ revision: 0 });
    });

    it("answers VALIDATION_FAILED, not a server error, when the database refuses a head", async () => {
      const db = await freshDb();
      // A collection whose validator refuses every head (an operator's stricter rule, say).
      await db.createCollection("release_heads", { validator: { revision: { $lt: 0 } } });
      const store = new MongoReleaseRegistry({ db });
      await store.ensureIndexes();
      const next = { releases: [], openExecutions: [] };
      expect(await codeOf(store.replaceHead(SCOPE, 0, next))).toBe("VALIDATION_FAILED");
      expect(await store.heads()).toEqual([]);
    });
  });
});
