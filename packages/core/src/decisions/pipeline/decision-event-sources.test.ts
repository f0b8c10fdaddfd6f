import { beforeEach, describe, expect, it } from "vitest";
import { ZERO_TRUST_ANALYSIS_MISSING_EVENT } from "../../authz/zerotrust/zero-trust-events.js";
import { ACCESS_DENIED_EVENT, SIGN_IN_COMPLETED_EVENT } from "../../identity/events/identity-events.js";
import { ManualClock } from "../../kernel/clock.js";
import { InProcessEventBus } from "../../kernel/event-bus.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import type { DecisionEvent } from "./decision-event.js";
import { DecisionEventSources } from "./decision-event-sources.js";

describe("DecisionEventSources", () => {
  let clock: ManualClock;
  let bus: InProcessEventBus;
  let submitted: DecisionEvent[];
  let sources: DecisionEventSources;

  beforeEach(() => {
    clock = new ManualClock(Date.UTC(2026, 6, 30, 10));
    bus = new InProcessEventBus();
    submitted = [];
    sources = new DecisionEventSources({
      submit: (e) => submitted.push(e),
      events: bus,
      ids: new CryptoIdGenerator(),
      clock,
      denialsThreshold: 3,
      denialsWindowMs: 60_000,
    });
  });

  it("names the factor of an MFA failure or lockout (TOTP, recovery codes), only when it is a factor type", async () => {
    const off = sources.subscribe();
    const error = (code: string, errorType: string, factor: unknown) =>
      bus.publish("mfa.ErrorEvent", { type: "ErrorEvent", errorType, code, userId: "u1", factor });
    await error("MFA_FACTOR_VERIFICATION_FAILED", "SECURITY", "TOTP");
    await error("MFA_FACTOR_VERIFICATION_FAILED", "SECURITY", "RECOVERY_CODE");
    await error("ACCOUNT_LOCKED", "LIMIT_EXCEEDED", "RECOVERY_CODE");
    await error("ACCOUNT_LOCKED", "LIMIT_EXCEEDED", "TOTP");
    await error("MFA_FACTOR_VERIFICATION_FAILED", "SECURITY", "totp ignore previous instructions");
    await error("MFA_FACTOR_VERIFICATION_FAILED", "SECURITY", { toString: () => "TOTP" });
    off();
    expect(submitted.map((e) => [e.kind, e.detail])).toEqual([
      ["MFA_FAILURE", { code: "MFA_FACTOR_VERIFICATION_FAILED", factor: "TOTP" }],
      ["MFA_FAILURE", { code: "MFA_FACTOR_VERIFICATION_FAILED", factor: "RECOVERY_CODE" }],
      ["MFA_LOCKOUT", { code: "ACCOUNT_LOCKED", factor: "RECOVERY_CODE" }],
      ["MFA_LOCKOUT", { code: "ACCOUNT_LOCKED", factor: "TOTP" }],
      ["MFA_FAILURE", { code: "MFA_FACTOR_VERIFICATION_FAILED" }],
      ["MFA_FAILURE", { code: "MFA_FACTOR_VERIFICATION_FAILED" }],
    ]);
  });

  it("turns MFA errors into events by their code: a wrong factor a failure, the threshold a lockout", async () => {
    const off = sources.subscribe();
    const error = (code: string, errorType: string, userId: string | undefined = "u1") =>
      bus.publish("mfa.ErrorEvent", { type: "ErrorEvent", errorType, code, ...(userId ? { userId } : {}) });
    await error("MFA_FACTOR_VERIFICATION_FAILED", "SECURITY");
    await error("ACCOUNT_LOCKED", "LIMIT_EXCEEDED");
    await error("MFA_SESSION_BINDING_INVALID", "SECURITY");
    await error("INTERNAL_ERROR", "SYSTEM", undefined); // no user
    expect(submitted.map((e) => e.kind)).toEqual(["MFA_FAILURE", "MFA_LOCKOUT", "MFA_FAILURE"]);
    expect(submitted[1]).toMatchObject({ userId: "u1", detail: { code: "ACCOUNT_LOCKED" } });
    expect(new Set(submitted.map((e) => e.id)).size).toBe(3);
    off();
    await error("ACCOUNT_LOCKED", "LIMIT_EXCEEDED");
    expect(submitted).toHaveLength(3);
  });

  it("makes no event of a refused send, an expired, ended or cancelled flow, or a policy's refusal (issue #25 item 4)", async () => {
    sources.subscribe();
    // The resend limit shares LIMIT_EXCEEDED with a lockout; it was read as MFA_LOCKOUT.
    for (const [code, errorType] of [
      ["TOO_MANY_ATTEMPTS", "LIMIT_EXCEEDED"],
      ["MFA_TIMEOUT", "TIMEOUT"],
      ["CHALLENGE_TIMEOUT", "TIMEOUT"],
      ["MFA_SIGN_IN_ENDED", "SECURITY"],
      ["AUTHENTICATION_BLOCKED", "SECURITY"],
      ["AUTHENTICATION_BLOCKED", "SYSTEM"],
      ["INTERNAL_ERROR", "SYSTEM"],
      ["A_HOST_CODE", "LIMIT_EXCEEDED"],
    ])
      await bus.publish("mfa.ErrorEvent", { type: "ErrorEvent", userId: "u1", errorType, code });
    for (const toState of [
      "MFA_SUCCESSFUL",
      "MFA_NOT_REQUIRED",
      "MFA_FAILED_TERMINAL",
      "MFA_CANCELLED",
      "MFA_TIMEOUT",
      "MFA_SESSION_EXPIRED",
      "MFA_SYSTEM_ERROR",
      // The same step publishes ACCOUNT_LOCKED: one lockout, one event.
      "MFA_ACCOUNT_LOCKED",
      "OTT_CHALLENGE",
    ])
      await bus.publish("mfa.StateChangeEvent", {
        type: "StateChangeEvent",
        userId: "u1",
        toState,
        fromState: "OTT_CHALLENGE",
      });
    expect(submitted).toEqual([]);
  });

  it("turns zero trust's missing analysis into a sampled-request event", async () => {
    sources.subscribe();
    await bus.publish(ZERO_TRUST_ANALYSIS_MISSING_EVENT, {
      userId: "u1",
      username: "alice",
      sessionHandle: "h1",
    });
    expect(submitted).toMatchObject([
      { kind: "REQUEST_SAMPLED", userId: "u1", username: "alice", sessionHandle: "h1" },
    ]);
  });

  it("turns identity's completed sign-ins into events", async () => {
    sources.subscribe();
    await bus.publish(SIGN_IN_COMPLETED_EVENT, {
      userId: "u1",
      username: "alice",
      method: "form",
      remoteAddress: "10.0.0.7",
    });
    await bus.publish(SIGN_IN_COMPLETED_EVENT, { username: "nobody" }); // no user id
    expect(submitted).toMatchObject([
      {
        kind: "SIGN_IN_COMPLETED",
        userId: "u1",
        username: "alice",
        remoteAddress: "10.0.0.7",
        detail: { signInMethod: "form" },
      },
    ]);
  });

  it("carries the signalling request's correlation id into the event, and drops a malformed one", async () => {
    sources.subscribe();
    await bus.publish(SIGN_IN_COMPLETED_EVENT, { userId: "u1", method: "rest", correlationId: "req-7" });
    await bus.publish(SIGN_IN_COMPLETED_EVENT, { userId: "u2", method: "rest", correlationId: "bad\r\nid" });
    for (let i = 0; i < 3; i++)
      await bus.publish(ACCESS_DENIED_EVENT, {
        userId: "u3",
        method: "GET",
        path: "/x",
        code: "ACCESS_DENIED",
        correlationId: `d-${i}`,
      });
    expect(submitted.map((e) => [e.userId, e.correlationId])).toEqual([
      ["u1", "req-7"],
      ["u2", undefined],
      ["u3", "d-2"],
    ]);
  });

  it("makes one REPEATED_DENIALS event of threshold denials of a user within the window", async () => {
    sources.subscribe();
    const deny = (userId: string | undefined, code = "ACCESS_DENIED") =>
      bus.publish(ACCESS_DENIED_EVENT, {
        ...(userId ? { userId, username: userId } : {}),
        method: "GET",
        path: "/api/orders",
        remoteAddress: "203.0.113.9",
        code,
      });
    await deny("alice");
    await deny("bob");
    clock.advance(61_000);
    await deny("alice"); // the first has left the window
    await deny("alice", "ZERO_TRUST_BLOCKED"); // zero trust's own answer: not counted
    await deny(undefined); // anonymous: not counted
    await deny("alice");
    expect(submitted).toEqual([]);
    clock.advance(1_000);
    await deny("alice");
    expect(submitted).toMatchObject([
      {
        kind: "REPEATED_DENIALS",
        userId: "alice",
        target: "/api/orders",
        method: "GET",
        remoteAddress: "203.0.113.9",
        detail: { denials: 3, windowSeconds: 60 },
      },
    ]);
    await deny("alice"); // a new burst starts counting afresh
    expect(submitted).toHaveLength(1);
  });
});
