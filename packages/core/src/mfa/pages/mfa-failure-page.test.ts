import { describe, expect, it } from "vitest";
import { type MfaFailureReason, mfaFailureReasonFor, renderMfaFailurePage } from "./mfa-failure-page.js";
import {
  decode,
  expectMfaPageContract,
  expectNoInjection,
  HOSTILE,
  pageConfig,
  tags,
} from "./page-contract.test-support.js";

const base = { csrfToken: "csrf-1", loginPageUrl: "/login" };

describe("renderMfaFailurePage", () => {
  it("honours the page contract", () => {
    const html = renderMfaFailurePage({ ...base, reason: "cancelled" });
    expectMfaPageContract(html, { csrfToken: "csrf-1" });
    expect(pageConfig(html)).toEqual({ "failure-reason": "cancelled", "login-url": "/login" });
    expect(tags(html, "a").find((a) => a.id === "signInAgainLink")?.href).toBe("/login");
  });

  it.each([
    ["cancelled", "cancelled"],
    ["timeout", "timed out"],
    ["expired", "expired"],
    ["blocked", "blocked"],
    ["failed", "failed"],
    ["error", "went wrong"],
  ] satisfies [MfaFailureReason, string][])("explains %s", (reason, text) => {
    expect(renderMfaFailurePage({ ...base, reason })).toContain(text);
  });

  it("gives the retry time when locked", () => {
    const html = renderMfaFailurePage({
      ...base,
      reason: "locked",
      lockedUntil: new Date("2030-01-02T03:04:05Z"),
    });
    expect(html).toContain("locked");
    expect(tags(html, "time")).toEqual([{ datetime: "2030-01-02T03:04:05.000Z" }]);
    expect(html).toContain("2030-01-02 03:04 UTC");
    expect(pageConfig(html)["retry-at"]).toBe("2030-01-02T03:04:05.000Z");
  });

  it("escapes a hostile detail", () => {
    const html = renderMfaFailurePage({
      ...base,
      reason: "blocked",
      detail: HOSTILE,
      csrfToken: HOSTILE,
      loginPageUrl: HOSTILE,
    });
    expect(pageConfig(html)["login-url"]).toBe(HOSTILE);
    expectNoInjection(html);
    expect(decode(html)).toContain(HOSTILE);
  });
});

describe("mfaFailureReasonFor", () => {
  it.each([
    ["MFA_CANCELLED", "cancelled"],
    ["MFA_TIMEOUT", "timeout"],
    ["MFA_ACCOUNT_LOCKED", "locked"],
    ["MFA_SESSION_EXPIRED", "expired"],
    ["BLOCKED", "blocked"],
    ["ESCALATED", "blocked"],
    ["MFA_FAILED_TERMINAL", "failed"],
    ["MFA_SYSTEM_ERROR", "error"],
    ["whatever", "error"],
  ])("%s -> %s", (state, reason) => {
    expect(mfaFailureReasonFor(state)).toBe(reason);
  });
});
