import { describe, expect, it } from "vitest";
import { type Clock, ManualClock } from "../../kernel/clock.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import type { NewPolicy, Policy, PolicyChanges, PolicyTarget } from "./policy.js";
import type { PolicyRepository } from "./policy-repository.js";
import { codeOf } from "../../kernel/error-code.test-support.js";

function target(targetIdentifier: string, overrides: Partial<PolicyTarget> = {}): PolicyTarget {
  return {
    targetType: "URL",
    targetIdentifier,
    httpMethod: "ANY",
    targetOrder: 0,
    sourceType: "MANUAL",
    ...overrides,
  };
}

function newPolicy(name: string, overrides: Partial<NewPolicy> = {}): NewPolicy {
  return {
    name,
    description: `${name}: what it protects and why`,
    effect: "ALLOW",
    priority: 0,
    targets: [target("/admin/**")],
    rules: [{ name: "admins", conditions: [{ expression: "hasRole('ADMIN')" }] }],
    source: "MANUAL",
    approvalStatus: "NOT_REQUIRED",
    isActive: true,
    confidenceScore: null,
    aiModel: null,
    ...overrides,
  };
}

/**
 * The behaviour every PolicyRepository adapter must show. `factory` returns a fresh, empty
 * repository reading time from `clock`.
 */
export function describePolicyRepositoryContract(
  name: string,
  factory: (clock: Clock) => Promise<PolicyRepository> | PolicyRepository,
): void {
  describe(`PolicyRepository contract: ${name}`, () => {
    const setup = async () => {
      const clock = new ManualClock(50_000);
      return { clock, repo: await factory(clock) };
    };

    describe("create and findById", () => {
      it("assigns id, version 1, createdAt = updatedAt = now and finds an equal copy", async () => {
        const { clock, repo } = await setup();
        const created = await repo.create(newPolicy("p"));
        expect(created).toEqual({
          ...newPolicy("p"),
          id: expect.any(String),
          createdSeq: expect.any(Number),
          createdAt: clock.now(),
          updatedAt: clock.now(),
          version: 1,
        });
        expect(created.id.length).toBeGreaterThan(0);
        expect(await repo.findById(created.id)).toEqual(created);
        expect(await repo.findById("nope")).toBeUndefined();
      });

      it("gives every policy its own id and a strictly increasing createdSeq", async () => {
        const { repo } = await setup();
        const a = await repo.create(newPolicy("a"));
        const b = await repo.create(newPolicy("b"));
        await repo.delete(b.id);
        const c = await repo.create(newPolicy("c"));
        expect(new Set([a.id, b.id, c.id]).size).toBe(3);
        expect(a.createdSeq).toBeLessThan(b.createdSeq);
        expect(b.createdSeq).toBeLessThan(c.createdSeq);
      });

      it("ignores store-assigned fields smuggled into the input", async () => {
        const { repo } = await setup();
        const smuggled = { ...newPolicy("p"), id: "chosen", version: 42, createdSeq: -5, extra: "x" };
        const created = await repo.create(smuggled as NewPolicy);
        expect(created.id).not.toBe("chosen");
        expect(created.version).toBe(1);
        expect(created.createdSeq).not.toBe(-5);
        expect(created).not.toHaveProperty("extra");
        expect(await repo.findById("chosen")).toBeUndefined();
      });
    });

    describe("findAll order", () => {
      it("keeps numeric priority order when policies are added one by one (not string order)", async () => {
        const { repo } = await setup();
        // node-casbin 5.51 sorted priorities as strings and put 10 before 9.
        for (const priority of [1, 2, 10, 9, 100, 20, -3, 0, 11]) {
          await repo.create(newPolicy(`p${priority}`, { priority }));
        }
        expect((await repo.findAll()).map((p) => p.priority)).toEqual([-3, 0, 1, 2, 9, 10, 11, 20, 100]);
      });

      it("keeps creation order among equal priorities, also after updates", async () => {
        const { clock, repo } = await setup();
        const first = await repo.create(newPolicy("first", { priority: 5 }));
        await repo.create(newPolicy("second", { priority: 5 }));
        await repo.create(newPolicy("early", { priority: 1 }));
        await repo.create(newPolicy("third", { priority: 5 }));
        clock.advance(1_000);
        await repo.update(first.id, 1, { name: "first (edited)" });
        expect((await repo.findAll()).map((p) => p.name)).toEqual([
          "early",
          "first (edited)",
          "second",
          "third",
        ]);
      });

      it("re-sorts a policy whose priority changed", async () => {
        const { repo } = await setup();
        const a = await repo.create(newPolicy("a", { priority: 1 }));
        await repo.create(newPolicy("b", { priority: 2 }));
        await repo.update(a.id, 1, { priority: 3 });
        expect((await repo.findAll()).map((p) => p.name)).toEqual(["b", "a"]);
      });
    });

    describe("findAll filters", () => {
      const seed = async (repo: PolicyRepository) => {
        await repo.create(newPolicy("Admin area", { priority: 1 }));
        await repo.create(
          newPolicy("AI orders", {
            priority: 2,
            description: "Generated from traffic",
            source: "AI_GENERATED",
            approvalStatus: "PENDING",
            confidenceScore: 0.8,
            aiModel: "model-x",
            targets: [target("com.shop.OrderService.find(Long)", { targetType: "METHOD" })],
          }),
        );
        await repo.create(
          newPolicy("Reports", {
            priority: 3,
            isActive: false,
            source: "IMPORTED",
            targets: [target("/reports/**"), target("a.B.c()", { targetType: "METHOD" })],
          }),
        );
      };
      const names = async (repo: PolicyRepository, filter: Parameters<PolicyRepository["findAll"]>[0]) =>
        (await repo.findAll(filter)).map((p) => p.name);

      it("filters by source, approvalStatus, isActive and targetType, and combines them", async () => {
        const { repo } = await setup();
        await seed(repo);
        expect(await names(repo, { source: "AI_GENERATED" })).toEqual(["AI orders"]);
        expect(await names(repo, { approvalStatus: "NOT_REQUIRED" })).toEqual(["Admin area", "Reports"]);
        expect(await names(repo, { isActive: false })).toEqual(["Reports"]);
        expect(await names(repo, { targetType: "METHOD" })).toEqual(["AI orders", "Reports"]);
        expect(await names(repo, { targetType: "URL" })).toEqual(["Admin area", "Reports"]);
        expect(await names(repo, { targetType: "URL", isActive: true })).toEqual(["Admin area"]);
        expect(await names(repo, {})).toEqual(["Admin area", "AI orders", "Reports"]);
      });

      it("matches text case-insensitively in name, description and target identifiers", async () => {
        const { repo } = await setup();
        await seed(repo);
        expect(await names(repo, { text: "ADMIN AREA" })).toEqual(["Admin area"]);
        expect(await names(repo, { text: "from traffic" })).toEqual(["AI orders"]);
        expect(await names(repo, { text: "orderservice.find" })).toEqual(["AI orders"]);
        expect(await names(repo, { text: "/REPORTS/" })).toEqual(["Reports"]);
        expect(await names(repo, { text: "nothing like this" })).toEqual([]);
        // Regex metacharacters are plain text.
        expect(await names(repo, { text: ".*" })).toEqual([]);
      });
    });

    describe("update (compare-and-set on version)", () => {
      it("applies the changes, bumps the version, sets updatedAt and keeps id, createdSeq, createdAt", async () => {
        const { clock, repo } = await setup();
        const created = await repo.create(newPolicy("p"));
        clock.advance(5_000);
        const updated = await repo.update(created.id, 1, {
          name: "renamed",
          approvalStatus: "APPROVED",
          rules: [],
        });
        expect(updated).toEqual({
          ...created,
          name: "renamed",
          approvalStatus: "APPROVED",
          rules: [],
          updatedAt: clock.now(),
          version: 2,
        });
        expect(await repo.findById(created.id)).toEqual(updated);
        expect((await repo.update(created.id, 2, { isActive: false })).version).toBe(3);
      });

      it("never lets changes move id, createdSeq or createdAt, and ignores undefined fields", async () => {
        const { repo } = await setup();
        const created = await repo.create(newPolicy("p"));
        const smuggled = {
          id: "other",
          createdSeq: 999,
          createdAt: 1,
          version: 77,
          name: undefined,
          priority: 4,
        };
        const updated = await repo.update(created.id, 1, smuggled as PolicyChanges);
        const { id, createdSeq, createdAt, name } = created;
        expect(updated).toMatchObject({ id, createdSeq, createdAt, name, priority: 4, version: 2 });
        expect(await repo.findById("other")).toBeUndefined();
      });

      it("refuses a stale or future version with CONFLICT and leaves the stored one unchanged", async () => {
        const { repo } = await setup();
        const created = await repo.create(newPolicy("p"));
        const first = await repo.update(created.id, 1, { name: "first" });
        expect(await codeOf(repo.update(created.id, 1, { name: "stale" }))).toBe("CONFLICT");
        expect(await codeOf(repo.update(created.id, 9, { name: "future" }))).toBe("CONFLICT");
        expect(await repo.findById(created.id)).toEqual(first);
      });

      it("lets exactly one of two concurrent writes of one version win", async () => {
        const { repo } = await setup();
        const created = await repo.create(newPolicy("p"));
        const results = await Promise.allSettled([
          repo.update(created.id, 1, { approvalStatus: "APPROVED" }),
          repo.update(created.id, 1, { approvalStatus: "REJECTED" }),
        ]);
        const won = results.filter((r) => r.status === "fulfilled");
        expect(won).toHaveLength(1);
        const lost = results.find((r) => r.status === "rejected");
        expect(isPlatformError(lost?.reason) && lost.reason.code).toBe("CONFLICT");
        const stored = await repo.findById(created.id);
        expect(stored?.version).toBe(2);
        expect(won[0]?.status === "fulfilled" && won[0].value).toEqual(stored);
      });

      it("refuses an unknown id with NOT_FOUND", async () => {
        const { repo } = await setup();
        expect(await codeOf(repo.update("nope", 1, { name: "x" }))).toBe("NOT_FOUND");
      });
    });

    describe("delete", () => {
      it("removes the policy once and reports whether it was there", async () => {
        const { repo } = await setup();
        const a = await repo.create(newPolicy("a"));
        const b = await repo.create(newPolicy("b"));
        expect(await repo.delete(a.id)).toBe(true);
        expect(await repo.delete(a.id)).toBe(false);
        expect(await repo.delete("nope")).toBe(false);
        expect(await repo.findById(a.id)).toBeUndefined();
        expect((await repo.findAll()).map((p) => p.id)).toEqual([b.id]);
        expect(await codeOf(repo.update(a.id, 1, { name: "x" }))).toBe("NOT_FOUND");
      });
    });

    describe("changeCount (what other instances poll)", () => {
      it("moves on every write and on nothing else", async () => {
        const { repo } = await setup();
        let last = await repo.changeCount();
        const moved = async (): Promise<boolean> => {
          const now = await repo.changeCount();
          const did = now !== last;
          expect(now).toBeGreaterThanOrEqual(last);
          last = now;
          return did;
        };
        const a = await repo.create(newPolicy("a"));
        expect(await moved()).toBe(true);
        await repo.findAll();
        await repo.findById(a.id);
        expect(await moved()).toBe(false);
        await repo.update(a.id, 1, { priority: 3 });
        expect(await moved()).toBe(true);
        expect(await codeOf(repo.update(a.id, 1, { priority: 4 }))).toBe("CONFLICT");
        expect(await codeOf(repo.update("nope", 1, { priority: 4 }))).toBe("NOT_FOUND");
        expect(await moved()).toBe(false);
        expect(await repo.delete("nope")).toBe(false);
        expect(await moved()).toBe(false);
        expect(await repo.delete(a.id)).toBe(true);
        expect(await moved()).toBe(true);
      });

      it("counts every one of concurrent writes", async () => {
        const { repo } = await setup();
        const before = await repo.changeCount();
        await Promise.all(["a", "b", "c", "d"].map((n) => repo.create(newPolicy(n))));
        expect((await repo.changeCount()) - before).toBeGreaterThanOrEqual(4);
      });
    });

    describe("copies, not aliases", () => {
      it("is not changed by mutating what it returned or what it was given", async () => {
        const { repo } = await setup();
        const input = newPolicy("p");
        const created = await repo.create(input);
        const snapshot = structuredClone(created);
        mutate(input);
        mutate(created);
        mutate((await repo.findById(created.id))!);
        mutate((await repo.findAll())[0]!);
        expect(await repo.findById(created.id)).toEqual(snapshot);

        const changes = { rules: [{ name: "r", conditions: [{ expression: "permitAll" }] }] };
        const updated = await repo.update(created.id, 1, changes);
        changes.rules[0]!.conditions.push({ expression: "denyAll" });
        mutate(updated);
        expect((await repo.findById(created.id))?.rules).toEqual([
          { name: "r", conditions: [{ expression: "permitAll" }] },
        ]);
      });
    });
  });
}

// Writes through every nested array and object a caller could have been handed.
function mutate(p: NewPolicy | Policy): void {
  const w = p as { -readonly [K in keyof Policy]: unknown } & {
    targets: { targetIdentifier: string }[];
    rules: { name: string; conditions: { expression: string }[] }[];
  };
  w.name = "mutated";
  w.targets[0]!.targetIdentifier = "/mutated/**";
  w.targets.push({ targetIdentifier: "/more" });
  w.rules[0]!.conditions[0]!.expression = "permitAll";
  w.rules[0]!.conditions.push({ expression: "denyAll" });
  w.rules.push({ name: "extra", conditions: [] });
}
