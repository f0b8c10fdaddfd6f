import type { Escalation } from "@keyward/core/ports";
import { describeEscalationStoreContract, ManualClock } from "@keyward/core/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { countCommands } from "../test-support/command-counter.js";
import { secondInstanceDb } from "../test-support/store-test-clients.js";
import { MongoEscalationStore } from "./mongo-escalation-store.js";

function held(id: string, now: number): Escalation {
  const primary = {
    userId: "u-1",
    username: "alice",
    authorities: ["ROLE_USER"],
    method: "form",
    authenticatedAt: now,
    factors: [{ type: "pwd", at: now }],
  } as const;
  return {
    id,
    userId: "u-1",
    username: "alice",
    primary,
    flowTypeName: "mfa",
    reason: "new network",
    status: "PENDING",
    createdAt: now,
    expiresAt: now + 60_000,
    callerBinding: "binding-hash",
    remoteAddress: "203.0.113.7",
    version: 0,
  };
}

describeAgainstMongo("MongoEscalationStore", (freshDb) => {
  describeEscalationStoreContract("MongoEscalationStore", async (clock) => {
    const store = new MongoEscalationStore({ db: await freshDb(), clock });
    await store.ensureIndexes();
    return store;
  });

  describe("on MongoDB", () => {
    it("lets an administrator on instance B decide what A held, once", async () => {
      const clock = new ManualClock(10_000);
      const db = await freshDb();
      const other = await secondInstanceDb(db);
      try {
        const a = new MongoEscalationStore({ db, clock });
        const b = new MongoEscalationStore({ db: other.db, clock });
        await a.ensureIndexes();
        const created = await a.create(held("e-1", clock.now()));
        expect((await b.listPending()).map((e) => e.id)).toEqual(["e-1"]);
        const results = await Promise.allSettled([
          a.compareAndSet({ ...created, status: "APPROVED", decidedBy: "root" }),
          b.compareAndSet({ ...created, status: "REJECTED", decidedBy: "bob" }),
        ]);
        expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
        expect(await a.listPending()).toEqual([]);
      } finally {
        await other.close();
      }
    });

    it("sends one command per method, forgets an escalation after its retention, and drops a cleared field", async () => {
      const clock = new ManualClock(10_000);
      const db = await freshDb();
      const commands = countCommands(db.client);
      onTestFinished(commands.stop);
      const store = new MongoEscalationStore({ db, clock, retentionMs: 1_000 });
      await store.ensureIndexes();
      let e = held("e-1", clock.now());
      expect(await commands.during(async () => (e = await store.create(e)))).toEqual(["update"]);
      expect(await commands.during(() => store.find("e-1"))).toEqual(["find"]);
      expect(await commands.during(() => store.listPending())).toEqual(["find"]);
      const decided = await store.compareAndSet({ ...e, status: "APPROVED", decidedBy: "root" });
      const { decidedBy: _, ...undecided } = decided;
      expect(await commands.during(() => store.compareAndSet({ ...undecided, status: "PENDING" }))).toEqual([
        "findAndModify",
      ]);
      expect(await store.find("e-1")).not.toHaveProperty("decidedBy");
      clock.advance(60_000 + 1_000);
      expect(await store.find("e-1")).toBeUndefined();
      expect((await store.create(held("e-1", clock.now()))).version).toBe(1);
    });
  });
});
