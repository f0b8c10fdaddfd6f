import { beforeAll, describe, expect, it } from "vitest";
import { builtEsm } from "./sdk-esm.js";

// The interceptor's decision table and retry rules, from the built ES module (pure functions).

type Verdict = { action: string; status?: number; code?: string };
type Decision = { retry: boolean; reason: string };
type RetryUnsafe = boolean | ((r: { method: string; url: string }) => boolean);

let classifyAnswer: (status: number, body: unknown) => Verdict;
let retryDecision: (
  r: { method: string; url: string; idempotencyKey?: string | null },
  retryUnsafe?: RetryUnsafe,
) => Decision;
let rules: readonly { status: number; code: string; action: string }[];

beforeAll(async () => {
  const sdk = await builtEsm();
  classifyAnswer = sdk.classifyAnswer as typeof classifyAnswer;
  retryDecision = sdk.retryDecision as typeof retryDecision;
  rules = sdk.PLATFORM_CODE_RULES as typeof rules;
});

describe("which answers start a challenge, which are refusals, which pass", () => {
  it("the table is the deliberate narrowing: exact status/code pairs", () => {
    expect(rules.map((r) => `${r.status} ${r.code} ${r.action}`)).toEqual([
      "401 MFA_CHALLENGE_REQUIRED challenge",
      "403 AUTHENTICATION_BLOCKED blocked",
      "403 ZERO_TRUST_BLOCKED blocked",
      "423 ZERO_TRUST_REVIEW_REQUIRED blocked",
      "423 ACCOUNT_LOCKED blocked",
      "503 ZERO_TRUST_PENDING_ANALYSIS blocked",
    ]);
    expect(Object.isFrozen(rules)).toBe(true);
  });

  it("each row decides its own status and code", () => {
    for (const r of rules) {
      expect(classifyAnswer(r.status, { code: r.code, message: "x" }), r.code).toEqual({
        action: r.action,
        status: r.status,
        code: r.code,
      });
    }
  });

  it("a platform code under another status passes (no 403 MFA_CHALLENGE_REQUIRED, no 401 ACCOUNT_LOCKED)", () => {
    expect(classifyAnswer(403, { code: "MFA_CHALLENGE_REQUIRED" })).toEqual({ action: "pass" });
    expect(classifyAnswer(423, { code: "MFA_CHALLENGE_REQUIRED" })).toEqual({ action: "pass" });
    expect(classifyAnswer(401, { code: "ACCOUNT_LOCKED" })).toEqual({ action: "pass" });
    expect(classifyAnswer(200, { code: "MFA_CHALLENGE_REQUIRED" })).toEqual({ action: "pass" });
    expect(classifyAnswer(500, { code: "ZERO_TRUST_PENDING_ANALYSIS" })).toEqual({ action: "pass" });
  });

  it("an application's own 401/403/423 passes: another code, no code, no JSON object", () => {
    for (const status of [401, 403, 423, 503]) {
      expect(classifyAnswer(status, { code: "ACCESS_DENIED" }), `${status}`).toEqual({ action: "pass" });
      expect(classifyAnswer(status, { error: "forbidden" }), `${status}`).toEqual({ action: "pass" });
      expect(classifyAnswer(status, { code: 401 }), `${status}`).toEqual({ action: "pass" });
      expect(classifyAnswer(status, undefined), `${status}`).toEqual({ action: "pass" });
      expect(classifyAnswer(status, null), `${status}`).toEqual({ action: "pass" });
      expect(classifyAnswer(status, "MFA_CHALLENGE_REQUIRED"), `${status}`).toEqual({ action: "pass" });
    }
    // Only the exact wire code MFA_CHALLENGE_REQUIRED starts a step-up: no prefix or case games.
    expect(classifyAnswer(401, { code: "mfa_challenge_required" })).toEqual({ action: "pass" });
    expect(classifyAnswer(401, { code: "MFA_CHALLENGE_REQUIRED_X" })).toEqual({ action: "pass" });
  });
});

describe("which requests are sent again after the step-up", () => {
  const url = "https://app.example/account/x";

  it("safe methods (GET, HEAD) always, whatever the case", () => {
    for (const method of ["GET", "HEAD", "get", "head"]) {
      expect(retryDecision({ method, url }), method).toEqual({ retry: true, reason: "safe-method" });
    }
  });

  it("non-idempotent methods never by default, not even with a blank Idempotency-Key", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      expect(retryDecision({ method, url }), method).toEqual({ retry: false, reason: "unsafe" });
      expect(retryDecision({ method, url, idempotencyKey: "  " }), method).toEqual({
        retry: false,
        reason: "unsafe",
      });
      expect(retryDecision({ method, url, idempotencyKey: null }, false), method).toEqual({
        retry: false,
        reason: "unsafe",
      });
    }
  });

  it("with an Idempotency-Key, or the application's opt-in (all, or per request)", () => {
    expect(retryDecision({ method: "POST", url, idempotencyKey: "k-1" })).toEqual({
      retry: true,
      reason: "idempotency-key",
    });
    expect(retryDecision({ method: "POST", url }, true)).toEqual({ retry: true, reason: "opt-in" });
    const seen: unknown[] = [];
    const onlyDrafts = (r: { method: string; url: string }) => {
      seen.push(r);
      return r.url.endsWith("/drafts");
    };
    expect(retryDecision({ method: "post", url: "https://app.example/drafts" }, onlyDrafts)).toEqual({
      retry: true,
      reason: "opt-in",
    });
    expect(retryDecision({ method: "DELETE", url }, onlyDrafts)).toEqual({ retry: false, reason: "unsafe" });
    expect(seen).toEqual([
      { method: "POST", url: "https://app.example/drafts" },
      { method: "DELETE", url },
    ]);
  });
});
