import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import type { FactorContext } from "./factor-context.js";
import { contextIn, deepFreeze, freshContext } from "./factor-context.fixture.js";
import { MFA_EVENTS, type MfaEvent } from "./mfa-event.js";
import { MFA_STATES, isTerminal } from "./mfa-state.js";
import { MfaStateMachine, type MfaStepInput } from "./mfa-state-machine.js";
import { type MfaGuardOutcome, guardedTransitions, transitions } from "./mfa-transitions.js";

const T0 = Date.UTC(2026, 0, 1);
const LIMITS = {
  sessionTimeoutMs: 600_000,
  challengeTimeoutMs: 300_000,
  maxRetryAttempts: 3,
  accountLockoutDurationMs: 900_000,
};

function setup() {
  const clock = new ManualClock(T0);
  return { clock, machine: new MfaStateMachine({ clock, ...LIMITS }) };
}

// What forces each guard outcome: the context it starts from and the input it gets.
const FORCE: Record<MfaGuardOutcome, { ctx?: Partial<FactorContext>; input?: MfaStepInput }> = {
  OTT_SELECTED: { input: { factor: "OTT" } },
  PASSKEY_SELECTED: { input: { factor: "PASSKEY" } },
  ALL_FACTORS_COMPLETED: { ctx: { requiredFactors: 1 } },
  MORE_FACTORS_REQUIRED: { ctx: { requiredFactors: 2 } },
  RETRIES_LEFT: { ctx: { failedAttempts: 0 } },
  NO_RETRIES_LEFT: { ctx: { failedAttempts: LIMITS.maxRetryAttempts - 1 } },
};

describe("MfaStateMachine: the transition table", () => {
  it("has exactly one row per accepted (state, event) pair and no row from a terminal state", () => {
    const keys = transitions().map((r) => `${r.from} ${r.event}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(transitions().filter((r) => isTerminal(r.from))).toEqual([]);
    for (const state of MFA_STATES.filter((s) => !isTerminal(s))) {
      for (const event of ["USER_ABORTED_MFA", "SESSION_TIMEOUT", "SESSION_INVALIDATED", "SYSTEM_ERROR"]) {
        expect(keys).toContain(`${state} ${event}`);
      }
    }
  });

  it("lists a branch for each guarded row and none for unguarded ones", () => {
    const guarded = transitions().filter((r) => r.to === "guarded");
    const branchKeys = new Set(guardedTransitions().map((b) => `${b.from} ${b.event}`));
    expect([...branchKeys].sort()).toEqual(guarded.map((r) => `${r.from} ${r.event}`).sort());
  });

  const plain = transitions().filter((r) => r.to !== "guarded");
  it.each(plain.map((r) => [r.from, r.event, r.to] as const))("%s --%s--> %s", async (from, event, to) => {
    const { machine } = setup();
    const ctx = deepFreeze(contextIn(from, T0));
    const next = await machine.fire(ctx, event);
    expect(next.state).toBe(to);
    expect(next.version).toBe(ctx.version);
    expect(next.history.at(-1)).toMatchObject({ event, at: T0 });
  });

  it.each(guardedTransitions().map((b) => [b.from, b.event, b.when, b.to] as const))(
    "%s --%s [%s]--> %s",
    async (from, event, when, to) => {
      const { machine } = setup();
      const force = FORCE[when];
      const ctx = deepFreeze(contextIn(from, T0, force.ctx));
      expect((await machine.fire(ctx, event, force.input)).state).toBe(to);
    },
  );

  const accepted = new Set(transitions().map((r) => `${r.from} ${r.event}`));
  const illegal = MFA_STATES.flatMap((s) => MFA_EVENTS.map((e) => [s, e] as const)).filter(
    ([s, e]) => !accepted.has(`${s} ${e}`),
  );
  it("covers the whole cross product", () => {
    expect(illegal.length + accepted.size).toBe(MFA_STATES.length * MFA_EVENTS.length);
  });

  it.each(illegal)("%s refuses %s with ILLEGAL_STATE_TRANSITION", async (state, event) => {
    const { machine } = setup();
    const ctx = contextIn(state, T0);
    await expect(machine.fire(ctx, event, { factor: "OTT" })).rejects.toMatchObject({
      code: "ILLEGAL_STATE_TRANSITION",
      message: `Event ${event} is not allowed in state ${state}`,
      details: { state, event },
    });
  });
});

describe("MfaStateMachine: guards", () => {
  async function run(machine: MfaStateMachine, ctx: FactorContext, ...steps: [MfaEvent, MfaStepInput?][]) {
    let current = ctx;
    for (const [event, input] of steps) current = await machine.fire(current, event, input);
    return current;
  }

  it("requiredFactors 1: one OTT completes MFA", async () => {
    const { machine } = setup();
    const done = await run(
      machine,
      freshContext(T0, { requiredFactors: 1 }),
      ["MFA_REQUIRED_SELECT_FACTOR", { detail: "role ADMIN requires MFA" }],
      ["FACTOR_SELECTED", { factor: "OTT" }],
      [
        "INITIATE_CHALLENGE",
        { challenge: { factor: "OTT", codeHash: "h", issuedAt: T0, expiresAt: T0 + 1 } },
      ],
      ["FACTOR_VERIFIED_SUCCESS"],
    );
    expect(done).toMatchObject({
      state: "MFA_SUCCESSFUL",
      completedFactors: [{ type: "OTT", at: T0 }],
      decisionReason: "role ADMIN requires MFA",
    });
    expect(done.challenge).toBeUndefined();
    expect(done.history.map((h) => h.event)).toEqual([
      "MFA_REQUIRED_SELECT_FACTOR",
      "FACTOR_SELECTED",
      "INITIATE_CHALLENGE",
      "FACTOR_VERIFIED_SUCCESS",
    ]);
    expect(done.history.at(-1)).toMatchObject({ factor: "OTT", success: true });
  });

  it("requiredFactors 2: OTT returns to selection, OTT again is refused, PASSKEY completes", async () => {
    const { clock, machine } = setup();
    const ctx = freshContext(T0, { requiredFactors: 2 });
    const afterOtt = await run(
      machine,
      ctx,
      ["MFA_REQUIRED_SELECT_FACTOR"],
      ["FACTOR_SELECTED", { factor: "OTT" }],
      ["INITIATE_CHALLENGE"],
      ["FACTOR_VERIFIED_SUCCESS"],
    );
    expect(afterOtt).toMatchObject({ state: "FACTOR_SELECTION", failedAttempts: 0 });
    expect(afterOtt.currentFactor).toBeUndefined();
    expect(afterOtt.challenge).toBeUndefined();
    await expect(machine.fire(afterOtt, "FACTOR_SELECTED", { factor: "OTT" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      message: "Factor OTT is already completed; each factor type counts once",
    });
    clock.advance(5);
    const passkey = await machine.fire(afterOtt, "FACTOR_SELECTED", { factor: "PASSKEY" });
    expect(passkey).toMatchObject({
      state: "PASSKEY_CHALLENGE",
      currentFactor: "PASSKEY",
      challenge: { factor: "PASSKEY", issuedAt: T0 + 5, expiresAt: T0 + 5 + LIMITS.challengeTimeoutMs },
    });
    const done = await machine.fire(passkey, "FACTOR_VERIFIED_SUCCESS", { factor: "PASSKEY" });
    expect(done.state).toBe("MFA_SUCCESSFUL");
    expect(done.completedFactors.map((c) => c.type)).toEqual(["OTT", "PASSKEY"]);
  });

  it("never counts one factor type twice, even from a context that already lists it", async () => {
    const { machine } = setup();
    const ctx = contextIn("OTT_CHALLENGE", T0, { completedFactors: [{ type: "OTT", at: 1 }] });
    const next = await machine.fire(ctx, "FACTOR_VERIFIED_SUCCESS");
    expect(next.state).toBe("FACTOR_SELECTION");
    expect(next.completedFactors).toEqual([{ type: "OTT", at: 1 }]);
  });

  it("refuses a missing, unknown or unavailable factor with VALIDATION_FAILED", async () => {
    const { machine } = setup();
    const ctx = contextIn("FACTOR_SELECTION", T0, { availableFactors: ["OTT"] });
    const bad: MfaStepInput[] = [{}, { factor: "SMS" as "OTT" }, { factor: "PASSKEY" }];
    for (const input of bad) {
      await expect(machine.fire(ctx, "FACTOR_SELECTED", input)).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
      });
    }
  });

  it("checks the factor and challenge a step names", async () => {
    const { machine } = setup();
    const ott = contextIn("OTT_CHALLENGE", T0);
    await expect(machine.fire(ott, "FACTOR_VERIFIED_SUCCESS", { factor: "PASSKEY" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    const wrong = { factor: "PASSKEY" as const, issuedAt: T0, expiresAt: T0 + 1 };
    await expect(machine.fire(ott, "INITIATE_CHALLENGE", { challenge: wrong })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    const selection = contextIn("FACTOR_SELECTION", T0);
    const otp = { factor: "OTT" as const, issuedAt: T0, expiresAt: T0 + 1 };
    await expect(
      machine.fire(selection, "FACTOR_SELECTED", { factor: "OTT", challenge: otp }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    const backwards = { factor: "PASSKEY" as const, issuedAt: T0, expiresAt: T0 - 1 };
    await expect(
      machine.fire(selection, "FACTOR_SELECTED", { factor: "PASSKEY", challenge: backwards }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });

  it("counts failures, keeps the challenge while retries are left, then locks the account", async () => {
    const { clock, machine } = setup();
    let ctx = contextIn("OTT_CHALLENGE", T0);
    ctx = await machine.fire(ctx, "FACTOR_VERIFICATION_FAILED");
    ctx = await machine.fire(ctx, "FACTOR_VERIFICATION_FAILED", { detail: "wrong code" });
    expect(ctx).toMatchObject({ state: "OTT_CHALLENGE", failedAttempts: 2, attemptsByFactor: { OTT: 2 } });
    expect(ctx.challenge).toMatchObject({ codeHash: "h1" });
    expect(ctx.history.at(-1)).toMatchObject({ factor: "OTT", success: false, detail: "wrong code" });
    clock.advance(1_000);
    const locked = await machine.fire(ctx, "FACTOR_VERIFICATION_FAILED");
    expect(locked).toMatchObject({
      state: "MFA_ACCOUNT_LOCKED",
      failedAttempts: 3,
      attemptsByFactor: { OTT: 3 },
      lockedUntil: T0 + 1_000 + LIMITS.accountLockoutDurationMs,
    });
    expect(locked.challenge).toBeUndefined();
    await expect(machine.fire(locked, "FACTOR_VERIFICATION_FAILED")).rejects.toMatchObject({
      code: "ILLEGAL_STATE_TRANSITION",
    });
  });

  it("a resend replaces the challenge and keeps the failed attempts", async () => {
    const { clock, machine } = setup();
    const failed = await machine.fire(contextIn("OTT_CHALLENGE", T0), "FACTOR_VERIFICATION_FAILED");
    clock.advance(30_000);
    const fresh = { factor: "OTT" as const, codeHash: "h2", issuedAt: T0 + 30_000, expiresAt: T0 + 90_000 };
    const resent = await machine.fire(failed, "INITIATE_CHALLENGE", { challenge: fresh });
    expect(resent).toMatchObject({ state: "OTT_CHALLENGE", failedAttempts: 1, challenge: fresh });
  });

  it("switching factors and back does not reset a factor's failures", async () => {
    const { machine } = setup();
    let ctx = await machine.fire(contextIn("OTT_CHALLENGE", T0), "FACTOR_VERIFICATION_FAILED");
    ctx = await machine.fire(ctx, "FACTOR_VERIFICATION_FAILED");
    ctx = await machine.fire(ctx, "MFA_REQUIRED_SELECT_FACTOR");
    expect(ctx).toMatchObject({ state: "FACTOR_SELECTION", failedAttempts: 0 });
    ctx = await machine.fire(ctx, "FACTOR_SELECTED", { factor: "PASSKEY" });
    expect(ctx.failedAttempts).toBe(0);
    ctx = await machine.fire(ctx, "MFA_REQUIRED_SELECT_FACTOR");
    ctx = await machine.fire(ctx, "FACTOR_SELECTED", { factor: "OTT" });
    expect(ctx.failedAttempts).toBe(2);
    ctx = await machine.fire(ctx, "INITIATE_CHALLENGE");
    expect((await machine.fire(ctx, "FACTOR_VERIFICATION_FAILED")).state).toBe("MFA_ACCOUNT_LOCKED");
  });

  it("sets lastActivityAt, keeps the last 50 history entries and bounds details", async () => {
    const { clock, machine } = setup();
    let ctx = contextIn("OTT_CHALLENGE", T0);
    for (let i = 0; i < 60; i++) {
      clock.advance(1);
      ctx = await machine.fire(ctx, "INITIATE_CHALLENGE", { detail: `resend ${i}` });
    }
    expect(ctx.lastActivityAt).toBe(T0 + 60);
    expect(ctx.createdAt).toBe(T0);
    expect(ctx.history).toHaveLength(50);
    expect(ctx.history[0]).toMatchObject({ detail: "resend 10", at: T0 + 11 });
    // The code count is not bounded by the history: every INITIATE_CHALLENGE counts.
    expect(ctx.codesSent).toBe(60);
    const long = await machine.fire(ctx, "USER_ABORTED_MFA", { detail: "x".repeat(1_000) });
    expect(long.history.at(-1)?.detail).toHaveLength(200);
  });

  it("refuses nonsensical limits with CONFIGURATION_INVALID and defaults the rest", async () => {
    const clock = new ManualClock(T0);
    expect(() => new MfaStateMachine({ clock, maxRetryAttempts: 0 })).toThrow(/maxRetryAttempts/);
    expect(() => new MfaStateMachine({ clock, maxRetryAttempts: 1.5 })).toThrow(/maxRetryAttempts/);
    expect(() => new MfaStateMachine({ clock, sessionTimeoutMs: Number.NaN })).toThrow(/sessionTimeoutMs/);
    const machine = new MfaStateMachine({ clock });
    let ctx = contextIn("OTT_CHALLENGE", T0);
    for (let i = 0; i < 4; i++) ctx = await machine.fire(ctx, "FACTOR_VERIFICATION_FAILED");
    const locked = await machine.fire(ctx, "FACTOR_VERIFICATION_FAILED");
    expect(locked).toMatchObject({ state: "MFA_ACCOUNT_LOCKED", lockedUntil: T0 + 15 * 60_000 });
  });
});
