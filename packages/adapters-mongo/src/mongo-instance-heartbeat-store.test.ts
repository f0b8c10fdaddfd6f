import { describeInstanceHeartbeatStoreContract } from "@keyward/core/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { countCommands } from "../test-support/command-counter.js";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoInstanceHeartbeatStore } from "./mongo-instance-heartbeat-store.js";

describeAgainstMongo("MongoInstanceHeartbeatStore", (freshDb) => {
  describeInstanceHeartbeatStoreContract("MongoInstanceHeartbeatStore", async () => {
    const store = new MongoInstanceHeartbeatStore({ db: await freshDb() });
    await store.ensureIndexes();
    return store;
  });

  describe("the prompt_instance_heartbeats collection", () => {
    it("holds one document per instance, keyed by its id, with the index prune reads", async () => {
      const db = await freshDb();
      const store = new MongoInstanceHeartbeatStore({ db });
      await store.ensureIndexes();
      await store.ensureIndexes(); // a second start (or instance) finds the index there
      const beat = { instanceId: "node-1", startedAt: 1, at: 2, serving: [] };
      await store.beat(beat);
      await store.beat({ ...beat, at: 3 });
      const docs = await db.collection("prompt_instance_heartbeats").find({}).toArray();
      expect(docs).toEqual([{ _id: "node-1", startedAt: 1, at: 3, serving: [] }]);
      const indexes = await db.collection("prompt_instance_heartbeats").listIndexes().toArray();
      expect(indexes.map((i) => [i.name, i.key])).toEqual([
        ["_id_", { _id: 1 }],
        ["at", { at: 1 }],
      ]);
    });

    it("sends one command per beat, list and prune, and none for a beat it refuses", async () => {
      const db = await freshDb();
      const store = new MongoInstanceHeartbeatStore({ db });
      await store.ensureIndexes();
      const commands = countCommands(db.client);
      onTestFinished(commands.stop);
      const beat = { instanceId: "node-1", startedAt: 1, at: 2, serving: [] };
      expect(await commands.trace(() => store.beat(beat))).toEqual(["update prompt_instance_heartbeats"]);
      expect(await commands.trace(() => store.list())).toEqual(["find prompt_instance_heartbeats"]);
      expect(await commands.trace(() => store.prune(3))).toEqual(["delete prompt_instance_heartbeats"]);
      expect(await commands.during(() => store.beat({ ...beat, at: -1 }).catch(() => undefined))).toEqual([]);
    });
  });
});
