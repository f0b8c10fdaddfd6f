import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { contextIn, freshContext } from "./factor-context.fixture.js";
import { TERMINAL_MFA_STATES } from "./mfa-state.js";
import { MfaStateMachine } from "./mfa-state-machine.js";

const T0 = Date.UTC(2026, 0, 1);
const SESSION = 600_000;
const CHALLENGE = 300_000;

function setup() {
  const clock = new ManualClock(T0);
  const machine = new MfaStateMachine({ clock, sessionTimeoutMs: SESSION, challengeTimeoutMs: CHALLENGE });
  return { clock, machine };
}

describe("MfaStateMachine.checkTimeouts", () => {
  it("times the flow out sessionTimeoutMs after createdAt, into MFA_TIMEOUT", async () => {
    const { clock, machine } = setup();
    const ctx = contextIn("FACTOR_SELECTION", T0, { lastActivityAt: T0 + SESSION });
    clock.advance(SESSION - 1);
    expect(machine.checkTimeouts(ctx)).toBeUndefined();
    clock.advance(1);
    const event = machine.checkTimeouts(ctx);
    expect(event).toBe("SESSION_TIMEOUT");
    const next = await machine.fire(ctx, event!);
    expect(next).toMatchObject({ state: "MFA_TIMEOUT", lastActivityAt: T0 + SESSION });
    expect(machine.checkTimeouts(next)).toBeUndefined();
  });

  it("times a challenge out challengeTimeoutMs after issuedAt, back to factor selection", async () => {
    const { clock, machine } = setup();
    const ctx = await machine.fire(contextIn("AWAITING_CHALLENGE_INITIATION", T0), "INITIATE_CHALLENGE");
    expect(ctx.challenge).toEqual({ factor: "OTT", issuedAt: T0, expiresAt: T0 + CHALLENGE });
    clock.advance(CHALLENGE - 1);
    expect(machine.checkTimeouts(ctx)).toBeUndefined();
    clock.advance(1);
    expect(machine.checkTimeouts(ctx)).toBe("CHALLENGE_TIMEOUT");
    const next = await machine.fire(ctx, "CHALLENGE_TIMEOUT");
    expect(next).toMatchObject({ state: "FACTOR_SELECTION", failedAttempts: 0 });
    expect(next.challenge).toBeUndefined();
    expect(next.currentFactor).toBeUndefined();
    expect(machine.checkTimeouts(next)).toBeUndefined();
  });

  it("honours an earlier expiresAt, and never a later one", async () => {
    const { clock, machine } = setup();
    const early = contextIn("PASSKEY_CHALLENGE", T0, {
      challenge: { factor: "PASSKEY", issuedAt: T0, expiresAt: T0 + 60_000 },
    });
    const late = contextIn("OTT_CHALLENGE", T0, {
      challenge: { factor: "OTT", issuedAt: T0, expiresAt: T0 + 10 * CHALLENGE },
    });
    clock.advance(60_000);
    expect(machine.checkTimeouts(early)).toBe("CHALLENGE_TIMEOUT");
    expect(machine.checkTimeouts(late)).toBeUndefined();
    clock.advance(CHALLENGE - 60_000);
    expect(machine.checkTimeouts(late)).toBe("CHALLENGE_TIMEOUT");
  });

  it("restarts the challenge clock on a resend", async () => {
    const { clock, machine } = setup();
    clock.advance(CHALLENGE - 1);
    const resent = await machine.fire(contextIn("OTT_CHALLENGE", T0), "INITIATE_CHALLENGE");
    clock.advance(1);
    expect(machine.checkTimeouts(resent)).toBeUndefined();
    clock.advance(CHALLENGE - 1);
    expect(machine.checkTimeouts(resent)).toBe("CHALLENGE_TIMEOUT");
  });

  it("prefers the session timeout over a challenge timeout", () => {
    const { clock, machine } = setup();
    clock.advance(SESSION);
    expect(machine.checkTimeouts(contextIn("OTT_CHALLENGE", T0))).toBe("SESSION_TIMEOUT");
  });

  it("reports nothing for terminal states, however old", () => {
    const { clock, machine } = setup();
    clock.advance(100 * SESSION);
    for (const state of TERMINAL_MFA_STATES) {
      expect(machine.checkTimeouts(freshContext(T0, { state })), state).toBeUndefined();
    }
    expect(machine.checkTimeouts(freshContext(T0))).toBe("SESSION_TIMEOUT");
  });
});
