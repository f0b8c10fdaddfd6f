import type { NewPolicy } from "@keyward/core/ports";
import { describePolicyRepositoryContract, ManualClock } from "@keyward/core/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { countCommands } from "../test-support/command-counter.js";
import { secondInstanceDb } from "../test-support/store-test-clients.js";
import { MongoPolicyRepository } from "./mongo-policy-repository.js";

let next = 0;
const ids = { id: () => `p-${++next}`, secret: () => "s" } as never;

function policy(name: string): NewPolicy {
  return {
    name,
    description: `${name}: why`,
    effect: "ALLOW",
    priority: 0,
    targets: [
      {
        targetType: "URL",
        targetIdentifier: "/admin/**",
        httpMethod: "ANY",
        targetOrder: 0,
        sourceType: "MANUAL",
      },
    ],
    rules: [{ name: "admins", conditions: [{ expression: "hasRole('ADMIN')" }] }],
    source: "MANUAL",
    approvalStatus: "NOT_REQUIRED",
    isActive: true,
    confidenceScore: null,
    aiModel: null,
  };
}

describeAgainstMongo("MongoPolicyRepository", (freshDb) => {
  describePolicyRepositoryContract("MongoPolicyRepository", async (clock) => {
    const repo = new MongoPolicyRepository({ db: await freshDb(), clock, ids });
    await repo.ensureIndexes();
    return repo;
  });

  describe("on MongoDB", () => {
    it("polls the change count with one command, and a write on A moves the count B polls", async () => {
      const clock = new ManualClock(50_000);
      const db = await freshDb();
      const commands = countCommands(db.client);
      onTestFinished(commands.stop);
      const other = await secondInstanceDb(db);
      try {
        const a = new MongoPolicyRepository({ db, clock, ids });
        const b = new MongoPolicyRepository({ db: other.db, clock, ids });
        await a.ensureIndexes();
        expect(await commands.during(() => a.changeCount())).toEqual(["find"]);
        const before = await b.changeCount();
        const created = await a.create(policy("p"));
        const seen = await b.changeCount();
        expect(seen).toBeGreaterThan(before);
        expect(await b.findAll()).toEqual([created]);
        await b.update(created.id, 1, { priority: 5 });
        expect(await a.changeCount()).toBeGreaterThan(seen);
        expect(await a.findById(created.id)).toMatchObject({ priority: 5, version: 2 });
      } finally {
        await other.close();
      }
    });

    it("sends 3 commands per create, 2 per update and delete, 1 per read", async () => {
      const clock = new ManualClock(50_000);
      const db = await freshDb();
      const commands = countCommands(db.client);
      onTestFinished(commands.stop);
      const repo = new MongoPolicyRepository({ db, clock, ids });
      let id = "";
      expect(await commands.during(async () => (id = (await repo.create(policy("p"))).id))).toEqual([
        "findAndModify",
        "insert",
        "update",
      ]);
      expect(await commands.during(() => repo.update(id, 1, { name: "q" }))).toEqual([
        "findAndModify",
        "update",
      ]);
      expect(await commands.during(() => repo.findById(id))).toEqual(["find"]);
      expect(await commands.during(() => repo.findAll({ text: "Q" }))).toEqual(["find"]);
      expect(await commands.during(() => repo.delete(id))).toEqual(["delete", "update"]);
    });

    it("refuses a create past maxPolicies with CONFLICT, also between instances, and frees a slot on delete", async () => {
      const clock = new ManualClock(50_000);
      const db = await freshDb();
      const other = await secondInstanceDb(db);
      try {
        const a = new MongoPolicyRepository({ db, clock, ids, maxPolicies: 2 });
        const b = new MongoPolicyRepository({ db: other.db, clock, ids, maxPolicies: 2 });
        const results = await Promise.allSettled([
          a.create(policy("1")),
          b.create(policy("2")),
          a.create(policy("3")),
        ]);
        const refused = results.filter((r) => r.status === "rejected");
        expect(refused).toHaveLength(1);
        expect(refused[0]?.status === "rejected" && refused[0].reason).toMatchObject({ code: "CONFLICT" });
        const [first] = await b.findAll();
        expect(await a.delete(first?.id ?? "")).toBe(true);
        expect((await b.create(policy("4"))).createdSeq).toBe(3); // a refused create takes no createdSeq
      } finally {
        await other.close();
      }
    });
  });
});
