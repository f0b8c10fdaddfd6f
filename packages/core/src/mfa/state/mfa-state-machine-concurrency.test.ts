import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { freshContext } from "./factor-context.fixture.js";
import { InMemoryFactorContextRepository } from "./in-memory-factor-context-repository.js";
import { MfaStateMachine } from "./mfa-state-machine.js";

describe("MfaStateMachine with a FactorContextRepository: concurrent steps", () => {
  async function setup() {
    const clock = new ManualClock();
    const machine = new MfaStateMachine({ clock });
    const repo = new InMemoryFactorContextRepository({ clock });
    const created = await repo.create(freshContext(clock.now()));
    await repo.save(await machine.fire(created, "MFA_REQUIRED_SELECT_FACTOR"));
    return { machine, repo };
  }

  it("lets exactly one of two steps from one loaded context win; the other gets CONFLICT", async () => {
    const { machine, repo } = await setup();
    const loaded = (await repo.find("mfa-1"))!;
    const results = await Promise.allSettled([
      machine.fire(loaded, "FACTOR_SELECTED", { factor: "OTT" }).then((next) => repo.save(next)),
      machine.fire(loaded, "USER_ABORTED_MFA").then((next) => repo.save(next)),
    ]);
    const won = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    const lost = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(isPlatformError(lost[0]) && lost[0].code).toBe("CONFLICT");
    expect(isPlatformError(lost[0]) && lost[0].message).toBe("The MFA session changed concurrently");
    const stored = await repo.find("mfa-1");
    expect(stored).toEqual(won[0]);
    expect(stored?.version).toBe(loaded.version + 1);
    expect(stored?.history).toHaveLength(2);
  });

  it("the loser reloads and its step is judged against the winner's state", async () => {
    const { machine, repo } = await setup();
    const loaded = (await repo.find("mfa-1"))!;
    await repo.save(await machine.fire(loaded, "USER_ABORTED_MFA"));
    const late = await machine.fire(loaded, "FACTOR_SELECTED", { factor: "OTT" });
    await expect(repo.save(late)).rejects.toMatchObject({ code: "CONFLICT" });
    const reloaded = (await repo.find("mfa-1"))!;
    expect(reloaded.state).toBe("MFA_CANCELLED");
    await expect(machine.fire(reloaded, "FACTOR_SELECTED", { factor: "OTT" })).rejects.toMatchObject({
      code: "ILLEGAL_STATE_TRANSITION",
    });
  });

  it("two failed codes racing on one version count once, never twice", async () => {
    const { machine, repo } = await setup();
    let ctx = (await repo.find("mfa-1"))!;
    ctx = await repo.save(await machine.fire(ctx, "FACTOR_SELECTED", { factor: "OTT" }));
    ctx = await repo.save(await machine.fire(ctx, "INITIATE_CHALLENGE"));
    const results = await Promise.allSettled([
      machine.fire(ctx, "FACTOR_VERIFICATION_FAILED").then((n) => repo.save(n)),
      machine.fire(ctx, "FACTOR_VERIFICATION_FAILED").then((n) => repo.save(n)),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await repo.find("mfa-1"))?.failedAttempts).toBe(1);
  });
});
