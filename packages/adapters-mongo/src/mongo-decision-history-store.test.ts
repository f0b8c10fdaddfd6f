import { describeDecisionHistoryStoreContract } from "@keyward/core/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { countCommands } from "../test-support/command-counter.js";
import { secondInstanceDb } from "../test-support/store-test-clients.js";
import { MongoDecisionHistoryStore } from "./mongo-decision-history-store.js";

describeAgainstMongo("MongoDecisionHistoryStore", (freshDb) => {
  describeDecisionHistoryStoreContract("MongoDecisionHistoryStore", async () => {
    const store = new MongoDecisionHistoryStore({ db: await freshDb() });
    await store.ensureIndexes();
    return store;
  });

  describe("on MongoDB", () => {
    const record = (id: string, at: number) => ({
      id,
      at,
      eventId: `e-${id}`,
      eventKind: "SIGN_IN_COMPLETED",
      userId: "u1",
      action: "ALLOW",
    });

    it("sends one command per append and per read, and every instance reads what another wrote", async () => {
      const db = await freshDb();
      const commands = countCommands(db.client);
      onTestFinished(commands.stop);
      const other = await secondInstanceDb(db);
      try {
        const a = new MongoDecisionHistoryStore({ db });
        const b = new MongoDecisionHistoryStore({ db: other.db });
        await a.ensureIndexes();
        expect(await commands.during(() => a.append(record("d1", 1_000)))).toEqual(["insert"]);
        expect(await commands.during(() => a.recentFor("u1", 5))).toEqual(["find"]);
        await b.append(record("d2", 2_000));
        expect((await a.recentFor("u1", 5)).map((r) => r.id)).toEqual(["d2", "d1"]);
        await expect(b.append(record("d1", 3_000))).rejects.toMatchObject({ code: "CONFLICT" });
      } finally {
        await other.close();
      }
    });
  });
});
