import { describe, expect, it } from "vitest";
import { MfaDecision } from "./mfa-decision.js";

describe("MfaDecision", () => {
  it("builds each decision type with its reason", () => {
    expect(MfaDecision.noMfaRequired()).toEqual({
      type: "NO_MFA_REQUIRED",
      reason: "no MFA required by policy",
    });
    expect(MfaDecision.noMfaRequired("trusted device")).toEqual({
      type: "NO_MFA_REQUIRED",
      reason: "trusted device",
    });
    expect(MfaDecision.challenged("role ROLE_ADMIN requires MFA")).toEqual({
      type: "CHALLENGED",
      reason: "role ROLE_ADMIN requires MFA",
    });
    expect(MfaDecision.blocked("no usable factor")).toEqual({ type: "BLOCKED", reason: "no usable factor" });
    expect(MfaDecision.escalated("risk")).toEqual({ type: "ESCALATED", reason: "risk" });
  });

  it("omits factors unless given, and keeps given factors deduplicated in order", () => {
    expect("factors" in MfaDecision.challenged("r")).toBe(false);
    expect(MfaDecision.challenged("r", ["PASSKEY", "OTT", "PASSKEY"]).factors).toEqual(["PASSKEY", "OTT"]);
  });

  it("returns frozen decisions whose factors do not follow the caller's array", () => {
    const factors: ("OTT" | "PASSKEY")[] = ["OTT"];
    const decision = MfaDecision.challenged("r", factors);
    factors.push("PASSKEY");
    expect(decision.factors).toEqual(["OTT"]);
    expect(Object.isFrozen(decision)).toBe(true);
    expect(Object.isFrozen(decision.factors)).toBe(true);
    expect(Object.isFrozen(MfaDecision.blocked("x"))).toBe(true);
    expect(Object.isFrozen(MfaDecision)).toBe(true);
  });
});
