import { describe, expect, it } from "vitest";
import type { Authentication } from "../../identity/authentication/authentication.js";
import { IDENTITY_ERROR_CODES } from "../../identity/identity-error-codes.js";
import { MFA_ERROR_CODES } from "../../mfa/mfa-error-codes.js";
import { AUTHZ_ERROR_CODES } from "../authz-error-codes.js";
import type { ZeroTrustAction } from "./zero-trust-action.js";
import type { ZeroTrustActionRecord } from "./zero-trust-action-store.js";
import { ALICE, user } from "./zero-trust.fixture.js";
import type { ZeroTrustResolution } from "./zero-trust-resolution.js";
import { steppedUpSince, zeroTrustDenial } from "./zero-trust-response.js";
import type { ZeroTrustPendingPolicy } from "./zero-trust.properties.js";

const AT = 10_000;

function resolution(
  action: ZeroTrustAction | undefined,
  extra: Partial<ZeroTrustResolution> = {},
): ZeroTrustResolution {
  const record: ZeroTrustActionRecord | undefined =
    action === undefined
      ? undefined
      : {
          subject: "user:u-alice",
          action,
          reason: "impossible travel",
          source: "adaptive-mfa",
          at: AT,
          expiresAt: AT + 1,
          version: 1,
        };
  return {
    action,
    ...(record ? { record } : {}),
    evaluated: true,
    mode: "ENFORCE",
    reason: action === undefined ? "no-analysis" : "user",
    ...extra,
  };
}

const pending = (p: ZeroTrustPendingPolicy) => ({ pendingAnalysis: p });
const ALLOW_PENDING = pending("ALLOW");
const withFactor = (type: "pwd" | "otp" | "hwk", at: number): Authentication =>
  user(
    "u-alice",
    "alice",
    ["ROLE_USER"],
    [
      { type: "pwd", at: 0 },
      { type, at },
    ],
  );

describe("zeroTrustDenial", () => {
  it("lets ALLOW and unevaluated resolutions through", () => {
    expect(zeroTrustDenial(resolution("ALLOW"), ALICE, ALLOW_PENDING)).toBeUndefined();
    for (const action of ["BLOCK", "ESCALATE", undefined] as const) {
      const r = resolution(action, { evaluated: false, reason: "not-sampled" });
      expect(zeroTrustDenial(r, ALICE, pending("DENY"))).toBeUndefined();
    }
  });

  it("maps BLOCK to 403 ZERO_TRUST_BLOCKED and ESCALATE to 423 ZERO_TRUST_REVIEW_REQUIRED", () => {
    expect(zeroTrustDenial(resolution("BLOCK"), ALICE, ALLOW_PENDING)).toEqual({
      code: "ZERO_TRUST_BLOCKED",
      status: 403,
      action: "BLOCK",
      reason: "BLOCK (adaptive-mfa: impossible travel)",
      message: "Access is blocked: ask an administrator to review it",
    });
    expect(zeroTrustDenial(resolution("ESCALATE"), ALICE, ALLOW_PENDING)).toMatchObject({
      code: "ZERO_TRUST_REVIEW_REQUIRED",
      status: 423,
    });
  });

  it("a BLOCK is not lifted by a step-up", () => {
    expect(zeroTrustDenial(resolution("BLOCK"), withFactor("hwk", AT + 5), ALLOW_PENDING)?.code).toBe(
      "ZERO_TRUST_BLOCKED",
    );
  });

  it("maps CHALLENGE to 401 MFA_CHALLENGE_REQUIRED with stepUp", () => {
    expect(zeroTrustDenial(resolution("CHALLENGE"), ALICE, ALLOW_PENDING)).toEqual({
      code: "MFA_CHALLENGE_REQUIRED",
      status: 401,
      action: "CHALLENGE",
      stepUp: true,
      reason: "CHALLENGE (adaptive-mfa: impossible travel)",
      message: "Additional verification is required: complete a second factor (step up), then retry",
    });
  });

  it("names the security decision a record's reason leads with, and says what to do", () => {
    const decided = (action: ZeroTrustAction) => {
      const r = resolution(action);
      return {
        ...r,
        record: { ...r.record!, source: "ai-decision", reason: "decision 7f3c-9a: AI ESCALATE (risk 0.55)" },
      };
    };
    expect(zeroTrustDenial(decided("ESCALATE"), ALICE, ALLOW_PENDING)).toMatchObject({
      code: "ZERO_TRUST_REVIEW_REQUIRED",
      decisionId: "7f3c-9a",
      message:
        "Access is held for a security review: wait for it, or ask an administrator to review decision 7f3c-9a",
    });
    expect(zeroTrustDenial(decided("BLOCK"), ALICE, ALLOW_PENDING)).toMatchObject({
      decisionId: "7f3c-9a",
      message: "Access is blocked: ask an administrator to review decision 7f3c-9a",
    });
    expect(zeroTrustDenial(decided("CHALLENGE"), ALICE, ALLOW_PENDING)).toMatchObject({
      code: "MFA_CHALLENGE_REQUIRED",
      stepUp: true,
      decisionId: "7f3c-9a",
    });
    // A record no decision wrote names none.
    expect(zeroTrustDenial(resolution("ESCALATE"), ALICE, ALLOW_PENDING)).toMatchObject({
      message: "Access is held for a security review: wait for it, or ask an administrator to review it",
    });
    expect(zeroTrustDenial(resolution("ESCALATE"), ALICE, ALLOW_PENDING)).not.toHaveProperty("decisionId");
  });

  it("treats a CHALLENGE as satisfied by an otp or hwk factor completed at or after the record", () => {
    const r = resolution("CHALLENGE");
    expect(zeroTrustDenial(r, withFactor("otp", AT), ALLOW_PENDING)).toBeUndefined();
    expect(zeroTrustDenial(r, withFactor("hwk", AT + 1), ALLOW_PENDING)).toBeUndefined();
    expect(zeroTrustDenial(r, withFactor("otp", AT - 1), ALLOW_PENDING)?.stepUp).toBe(true);
    expect(zeroTrustDenial(r, withFactor("pwd", AT + 1), ALLOW_PENDING)?.stepUp).toBe(true);
    expect(zeroTrustDenial(r, undefined, ALLOW_PENDING)?.stepUp).toBe(true);
  });

  it("answers PENDING_ANALYSIS and 'no analysis' by security.zerotrust.pending-analysis", () => {
    for (const r of [resolution("PENDING_ANALYSIS"), resolution(undefined)]) {
      expect(zeroTrustDenial(r, ALICE, pending("ALLOW"))).toBeUndefined();
      expect(zeroTrustDenial(r, ALICE, pending("CHALLENGE"))).toMatchObject({
        code: "MFA_CHALLENGE_REQUIRED",
        status: 401,
        action: "PENDING_ANALYSIS",
        stepUp: true,
      });
      expect(zeroTrustDenial(r, ALICE, pending("DENY"))).toMatchObject({
        code: "ZERO_TRUST_PENDING_ANALYSIS",
        status: 503,
        message: "Security analysis is in progress; try again shortly",
      });
    }
    expect(zeroTrustDenial(resolution(undefined), ALICE, pending("DENY"))?.reason).toBe(
      "PENDING_ANALYSIS (no-analysis)",
    );
  });

  it("pending-analysis CHALLENGE is satisfied by any step-up when there is no record, by a later one otherwise", () => {
    expect(
      zeroTrustDenial(resolution(undefined), withFactor("otp", 1), pending("CHALLENGE")),
    ).toBeUndefined();
    expect(
      zeroTrustDenial(resolution("PENDING_ANALYSIS"), withFactor("otp", 1), pending("CHALLENGE"))?.code,
    ).toBe("MFA_CHALLENGE_REQUIRED");
  });

  it("marks denials shadow: true in SHADOW mode, and stale ones in the reason", () => {
    expect(zeroTrustDenial(resolution("BLOCK", { mode: "SHADOW" }), ALICE, ALLOW_PENDING)).toMatchObject({
      code: "ZERO_TRUST_BLOCKED",
      shadow: true,
    });
    expect(zeroTrustDenial(resolution("BLOCK"), ALICE, ALLOW_PENDING)).not.toHaveProperty("shadow");
    expect(
      zeroTrustDenial(resolution("BLOCK", { stale: true, reason: "timeout" }), ALICE, ALLOW_PENDING)?.reason,
    ).toBe("BLOCK (adaptive-mfa: impossible travel, stale)");
  });

  it("uses statuses from the code tables and never puts the operator reason in the message", () => {
    const tables = { ...IDENTITY_ERROR_CODES, ...MFA_ERROR_CODES, ...AUTHZ_ERROR_CODES };
    for (const action of ["BLOCK", "CHALLENGE", "ESCALATE", "PENDING_ANALYSIS"] as const) {
      const d = zeroTrustDenial(resolution(action), ALICE, pending("DENY"))!;
      expect(d.status).toBe(tables[d.code].status);
      expect(d.message).not.toContain("travel");
    }
  });
});

describe("steppedUpSince", () => {
  it("needs an otp or hwk factor at or after the time", () => {
    expect(steppedUpSince(withFactor("otp", 5), 5)).toBe(true);
    expect(steppedUpSince(withFactor("otp", 4), 5)).toBe(false);
    expect(steppedUpSince(ALICE, 0)).toBe(false);
    expect(steppedUpSince(undefined, 0)).toBe(false);
  });
});
