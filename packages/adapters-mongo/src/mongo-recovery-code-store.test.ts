import { describeRecoveryCodeStoreContract } from "@keyward/core/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { countCommands } from "../test-support/command-counter.js";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { secondInstanceDb } from "../test-support/store-test-clients.js";
import { MongoRecoveryCodeStore } from "./mongo-recovery-code-store.js";

describeAgainstMongo("MongoRecoveryCodeStore", (freshDb) => {
  describeRecoveryCodeStoreContract("MongoRecoveryCodeStore", async () => {
    const store = new MongoRecoveryCodeStore({ db: await freshDb() });
    await store.ensureIndexes();
    return store;
  });

  describe("on MongoDB", () => {
    it("lets one of two instances' concurrent spends of a code win, and keeps only hashes", async () => {
      const db = await freshDb();
      const other = await secondInstanceDb(db);
      try {
        const a = new MongoRecoveryCodeStore({ db });
        const b = new MongoRecoveryCodeStore({ db: other.db });
        await a.replace("alice", ["h-1", "h-2"], 1_000);
        const wins = await Promise.all(
          Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).spend("alice", "h-1")),
        );
        expect(wins.filter(Boolean)).toHaveLength(1);
        expect(await b.remaining("alice")).toBe(1);
        const doc = await db.collection("mfa_recovery_codes").findOne({ _id: "alice" as never });
        expect(doc).toMatchObject({ codes: ["h-2"], createdAt: new Date(1_000) });
      } finally {
        await other.close();
      }
    });

    it("spends a code in one command", async () => {
      const db = await freshDb();
      const commands = countCommands(db.client);
      onTestFinished(commands.stop);
      const store = new MongoRecoveryCodeStore({ db });
      await store.replace("alice", ["h-1"], 1);
      expect(await commands.during(() => store.spend("alice", "h-1"))).toEqual(["update"]);
      expect(await commands.during(() => store.remaining("alice"))).toEqual(["find"]);
    });
  });
});
