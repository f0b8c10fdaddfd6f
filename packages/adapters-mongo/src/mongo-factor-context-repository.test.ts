import type { FactorContext } from "@keyward/core/ports";
import { describeFactorContextRepositoryContract, ManualClock } from "@keyward/core/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { countCommands } from "../test-support/command-counter.js";
import { secondInstanceDb } from "../test-support/store-test-clients.js";
import { MongoFactorContextRepository } from "./mongo-factor-context-repository.js";

function flow(mfaSessionId: string, now: number): FactorContext {
  const primary = {
    userId: "u-1",
    username: "alice",
    authorities: ["ROLE_USER"],
    method: "form",
    authenticatedAt: now,
    factors: [{ type: "pwd", at: now }],
  } as const;
  return {
    mfaSessionId,
    version: 0,
    state: "PRIMARY_AUTHENTICATION_COMPLETED",
    flowTypeName: "mfa",
    userId: primary.userId,
    username: primary.username,
    callerBinding: "binding-1",
    primary,
    requiredFactors: 1,
    availableFactors: ["OTT", "PASSKEY"],
    completedFactors: [],
    failedAttempts: 0,
    attemptsByFactor: {},
    codesSent: 0,
    history: [],
    createdAt: now,
    lastActivityAt: now,
  };
}

describeAgainstMongo("MongoFactorContextRepository", (freshDb) => {
  describeFactorContextRepositoryContract("MongoFactorContextRepository", async (clock) => {
    const repo = new MongoFactorContextRepository({ db: await freshDb(), clock });
    await repo.ensureIndexes();
    return repo;
  });

  describe("on MongoDB", () => {
    it("continues on instance B a flow started on A; one of two instances verifying one code wins", async () => {
      const clock = new ManualClock(10_000);
      const db = await freshDb();
      const other = await secondInstanceDb(db);
      try {
        const a = new MongoFactorContextRepository({ db, clock });
        const b = new MongoFactorContextRepository({ db: other.db, clock });
        await a.ensureIndexes();
        const created = await a.create(flow("s-1", clock.now()));
        const challenge = {
          factor: "OTT" as const,
          codeHash: "h",
          issuedAt: clock.now(),
          expiresAt: clock.now() + 1,
        };
        const waiting = await b.save({ ...created, state: "OTT_CHALLENGE", currentFactor: "OTT", challenge });
        expect(await a.find("s-1")).toEqual(waiting);
        const verify = { ...waiting, state: "MFA_SUCCESSFUL", challenge: undefined } as const;
        const results = await Promise.allSettled([a.save(verify), b.save(verify)]);
        expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
        const stored = await b.find("s-1");
        expect(stored).toMatchObject({ state: "MFA_SUCCESSFUL", version: 3 });
        expect(stored).not.toHaveProperty("challenge");
      } finally {
        await other.close();
      }
    });

    it("sends one command per find, create and successful save", async () => {
      const clock = new ManualClock(10_000);
      const db = await freshDb();
      const commands = countCommands(db.client);
      onTestFinished(commands.stop);
      const repo = new MongoFactorContextRepository({ db, clock });
      await repo.ensureIndexes();
      let created = flow("s-1", clock.now());
      expect(await commands.during(async () => (created = await repo.create(created)))).toEqual(["update"]);
      expect(await commands.during(() => repo.find("s-1"))).toEqual(["find"]);
      expect(await commands.during(() => repo.save(created))).toEqual(["findAndModify"]);
      expect(await commands.during(() => repo.delete("s-1"))).toEqual(["findAndModify"]);
    });

    it("takes a create over an expired flow the TTL monitor has not removed yet", async () => {
      const clock = new ManualClock(10_000);
      const db = await freshDb();
      const repo = new MongoFactorContextRepository({ db, clock, retentionMs: 1_000 });
      await repo.create(flow("s-1", clock.now()));
      clock.advance(1_000);
      const again = await repo.create({ ...flow("s-1", clock.now()), flowTypeName: "mfa_2" });
      expect(again).toMatchObject({ flowTypeName: "mfa_2", version: 1 });
      expect(await db.collection("mfa_factor_contexts").countDocuments()).toBe(1);
    });
  });
});
