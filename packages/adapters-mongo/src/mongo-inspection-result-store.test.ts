import { describeInspectionResultStoreContract } from "@keyward/core/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { countCommands } from "../test-support/command-counter.js";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoInspectionResultStore } from "./mongo-inspection-result-store.js";

const result = (packageId: string) => ({
  packageId,
  capturedAt: 1,
  inspectedAt: 2,
  inspectorVersion: "prompt-inspector/1",
  dictionaryVersion: "v20@9d87255aa312",
  verdict: "PASS" as const,
  checks: [],
  findings: [],
});

describeAgainstMongo("MongoInspectionResultStore", (freshDb) => {
  describeInspectionResultStoreContract("MongoInspectionResultStore", async () => {
    const store = new MongoInspectionResultStore({ db: await freshDb() });
    await store.ensureIndexes();
    return store;
  });

  describe("the inspection_results collection", () => {
    it("holds one document per package and version, with the indexes latest and list read", async () => {
      const db = await freshDb();
      const store = new MongoInspectionResultStore({ db });
      await store.ensureIndexes();
      await store.ensureIndexes();
      await store.save(result("p1"));
      await store.save({ ...result("p1"), inspectedAt: 3 });
      const docs = await db.collection("inspection_results").find({}).toArray();
      expect(docs).toEqual([{ _id: { p: "p1", v: "prompt-inspector/1" }, ...result("p1"), inspectedAt: 3 }]);
      const indexes = await db.collection("inspection_results").listIndexes().toArray();
      expect(indexes.map((i) => i.name)).toEqual([
        "_id_",
        "packageId_inspectedAt",
        "capturedAt_packageId_version",
      ]);
    });

    it("sends one command per method, and none for a query it refuses", async () => {
      const db = await freshDb();
      const store = new MongoInspectionResultStore({ db });
      await store.ensureIndexes();
      const commands = countCommands(db.client);
      onTestFinished(commands.stop);
      expect(await commands.trace(() => store.save(result("p1")))).toEqual(["update inspection_results"]);
      expect(await commands.trace(() => store.latest("p1"))).toEqual(["find inspection_results"]);
      expect(await commands.trace(() => store.inspected(["p1"], "prompt-inspector/1"))).toEqual([
        "find inspection_results",
      ]);
      expect(await commands.trace(() => store.list({ limit: 5 }))).toEqual(["find inspection_results"]);
      expect(await commands.during(() => store.list({ limit: 0 }).catch(() => undefined))).toEqual([]);
    });
  });
});
