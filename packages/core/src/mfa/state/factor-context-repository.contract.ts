import { describe, expect, it } from "vitest";
import type { Authentication } from "../../identity/authentication/authentication.js";
import { type Clock, ManualClock } from "../../kernel/clock.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { type FactorContext, newFactorContext } from "./factor-context.js";
import {
  DEFAULT_FACTOR_CONTEXT_RETENTION_MS,
  type FactorContextRepository,
} from "./factor-context-repository.js";
import { codeOf } from "../../kernel/error-code.test-support.js";

const primary: Authentication = {
  userId: "u-1",
  username: "alice",
  authorities: ["ROLE_USER"],
  method: "form",
  authenticatedAt: 1_000,
  factors: [{ type: "pwd", at: 1_000 }],
};

function context(id: string, now: number): FactorContext {
  return newFactorContext({
    mfaSessionId: id,
    flowTypeName: "mfa",
    callerBinding: "binding-1",
    primary,
    requiredFactors: 1,
    availableFactors: ["OTT", "PASSKEY"],
    now,
  });
}

/**
 * The behaviour every FactorContextRepository adapter must show. `factory` returns a fresh, empty
 * repository reading time from `clock` and keeping contexts for the default retention
 * (DEFAULT_FACTOR_CONTEXT_RETENTION_MS) after their last write.
 */
export function describeFactorContextRepositoryContract(
  name: string,
  factory: (clock: Clock) => Promise<FactorContextRepository> | FactorContextRepository,
): void {
  describe(`FactorContextRepository contract: ${name}`, () => {
    const setup = async () => {
      const clock = new ManualClock(10_000);
      return { clock, repo: await factory(clock) };
    };

    describe("create and find", () => {
      it("stores version 1 whatever the input says and finds an equal copy", async () => {
        const { clock, repo } = await setup();
        const created = await repo.create({ ...context("s-1", clock.now()), version: 7 });
        expect(created).toEqual({ ...context("s-1", clock.now()), version: 1 });
        expect(await repo.find("s-1")).toEqual(created);
      });

      it("refuses a second create of a live id with CONFLICT and keeps the first", async () => {
        const { clock, repo } = await setup();
        const first = await repo.create(context("s-1", clock.now()));
        const other = { ...context("s-1", clock.now()), flowTypeName: "mfa_2" };
        expect(await codeOf(repo.create(other))).toBe("CONFLICT");
        expect(await repo.find("s-1")).toEqual(first);
      });

      it("finds nothing for an unknown id", async () => {
        const { repo } = await setup();
        expect(await repo.find("nope")).toBeUndefined();
      });
    });

    describe("save (compare-and-set on version)", () => {
      it("stores the changes and bumps the version", async () => {
        const { clock, repo } = await setup();
        const created = await repo.create(context("s-1", clock.now()));
        const saved = await repo.save({ ...created, state: "FACTOR_SELECTION" });
        expect(saved).toMatchObject({ state: "FACTOR_SELECTION", version: 2 });
        expect(await repo.find("s-1")).toEqual(saved);
        expect((await repo.save(saved)).version).toBe(3);
      });

      it("refuses a stale or future version with CONFLICT and leaves the stored context unchanged", async () => {
        const { clock, repo } = await setup();
        const created = await repo.create(context("s-1", clock.now()));
        const first = await repo.save({ ...created, state: "FACTOR_SELECTION" });
        const stale = repo.save({ ...created, state: "MFA_CANCELLED" });
        await expect(stale).rejects.toMatchObject({
          code: "CONFLICT",
          message: "The MFA session changed concurrently",
        });
        expect(await codeOf(repo.save({ ...created, version: 99 }))).toBe("CONFLICT");
        expect(await repo.find("s-1")).toEqual(first);
      });

      it("lets exactly one of two concurrent saves of one version win", async () => {
        const { clock, repo } = await setup();
        const created = await repo.create(context("s-1", clock.now()));
        const results = await Promise.allSettled([
          repo.save({ ...created, state: "FACTOR_SELECTION" }),
          repo.save({ ...created, state: "MFA_CANCELLED" }),
        ]);
        const won = results.filter((r) => r.status === "fulfilled");
        expect(won).toHaveLength(1);
        const lost = results.find((r) => r.status === "rejected");
        expect(isPlatformError(lost?.reason) && lost.reason.code).toBe("CONFLICT");
        const stored = await repo.find("s-1");
        expect(stored?.version).toBe(2);
        expect(won[0]?.status === "fulfilled" && won[0].value).toEqual(stored);
      });

      it("keeps createdAt and callerBinding from the store", async () => {
        const { clock, repo } = await setup();
        const created = await repo.create(context("s-1", clock.now()));
        const saved = await repo.save({ ...created, createdAt: 0, callerBinding: "someone-else" });
        expect(saved).toMatchObject({ createdAt: created.createdAt, callerBinding: "binding-1" });
      });

      it("refuses an unknown or deleted id with NOT_FOUND", async () => {
        const { clock, repo } = await setup();
        const created = await repo.create(context("s-1", clock.now()));
        expect(await codeOf(repo.save({ ...created, mfaSessionId: "nope" }))).toBe("NOT_FOUND");
        await repo.delete("s-1");
        expect(await codeOf(repo.save(created))).toBe("NOT_FOUND");
      });
    });

    describe("copies, not aliases", () => {
      it("is not changed by mutating what it returned or what it was given", async () => {
        const { clock, repo } = await setup();
        const input = context("s-1", clock.now());
        const created = await repo.create(input);
        const snapshot = structuredClone(created);
        (input.availableFactors as string[]).push("X");
        (created.history as unknown[]).push({ event: "SYSTEM_ERROR", at: 0 });
        const found = (await repo.find("s-1"))!;
        (found.completedFactors as unknown[]).push({ type: "OTT", at: 0 });
        (found.primary.authorities as string[]).push("ROLE_ADMIN");
        const again = (await repo.find("s-1"))!;
        expect(again).toEqual(snapshot);
        expect(again).not.toBe(found);
        const toSave = { ...again, attemptsByFactor: { OTT: 1 } };
        const saved = await repo.save(toSave);
        toSave.attemptsByFactor.OTT = 4;
        (saved.history as unknown[]).push({ event: "SYSTEM_ERROR", at: 0 });
        expect(await repo.find("s-1")).toMatchObject({ attemptsByFactor: { OTT: 1 }, history: [] });
      });
    });

    describe("expiry", () => {
      it("returns a context until the retention after its last write, then treats it as absent", async () => {
        const { clock, repo } = await setup();
        const created = await repo.create(context("s-1", clock.now()));
        clock.advance(DEFAULT_FACTOR_CONTEXT_RETENTION_MS - 1);
        const saved = await repo.save(created);
        clock.advance(DEFAULT_FACTOR_CONTEXT_RETENTION_MS - 1);
        expect(await repo.find("s-1")).toEqual(saved);
        clock.advance(1);
        expect(await repo.find("s-1")).toBeUndefined();
        expect(await codeOf(repo.save(saved))).toBe("NOT_FOUND");
        expect(await repo.delete("s-1")).toBe(false);
        const fresh = await repo.create(context("s-1", clock.now()));
        expect(fresh.version).toBe(1);
      });
    });

    describe("delete", () => {
      it("deletes once", async () => {
        const { clock, repo } = await setup();
        await repo.create(context("s-1", clock.now()));
        await repo.create(context("s-2", clock.now()));
        expect(await repo.delete("s-1")).toBe(true);
        expect(await repo.delete("s-1")).toBe(false);
        expect(await repo.delete("nope")).toBe(false);
        expect(await repo.find("s-1")).toBeUndefined();
        expect(await repo.find("s-2")).toBeDefined();
      });
    });
  });
}
