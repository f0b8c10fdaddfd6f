import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { newFactorContext } from "./factor-context.js";
import { describeFactorContextRepositoryContract } from "./factor-context-repository.contract.js";
import { InMemoryFactorContextRepository } from "./in-memory-factor-context-repository.js";

describeFactorContextRepositoryContract("InMemoryFactorContextRepository", (clock) => {
  return new InMemoryFactorContextRepository({ clock });
});

const primary = {
  userId: "u-1",
  username: "alice",
  authorities: [],
  method: "form",
  authenticatedAt: 0,
  factors: [],
} as const;

const ctx = (id: string, now: number) =>
  newFactorContext({
    mfaSessionId: id,
    flowTypeName: "mfa",
    callerBinding: "b",
    primary,
    requiredFactors: 1,
    availableFactors: ["OTT"],
    now,
  });

describe("InMemoryFactorContextRepository", () => {
  it("evicts the oldest created context beyond maxContexts", async () => {
    const clock = new ManualClock();
    const repo = new InMemoryFactorContextRepository({ clock, maxContexts: 2 });
    const a = await repo.create(ctx("a", clock.now()));
    await repo.create(ctx("b", clock.now()));
    await repo.save(a);
    await repo.create(ctx("c", clock.now()));
    expect(await repo.find("a")).toBeUndefined();
    expect(await repo.find("b")).toBeDefined();
    expect(await repo.find("c")).toBeDefined();
  });

  it("honours a custom retentionMs", async () => {
    const clock = new ManualClock();
    const repo = new InMemoryFactorContextRepository({ clock, retentionMs: 1_000 });
    await repo.create(ctx("a", clock.now()));
    clock.advance(999);
    expect(await repo.find("a")).toBeDefined();
    clock.advance(1);
    expect(await repo.find("a")).toBeUndefined();
  });

  it("refuses an empty id and nonsensical options", async () => {
    const clock = new ManualClock();
    const repo = new InMemoryFactorContextRepository({ clock });
    await expect(repo.create({ ...ctx("a", 0), mfaSessionId: "" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    expect(() => new InMemoryFactorContextRepository({ clock, maxContexts: 0 })).toThrow(/maxContexts/);
    expect(() => new InMemoryFactorContextRepository({ clock, retentionMs: Number.NaN })).toThrow(
      /retentionMs/,
    );
  });
});
