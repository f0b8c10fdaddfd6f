import { describe, expect, it } from "vitest";
import { evaluateReferenceSource, type ReferenceSubject } from "./reference-expression.js";
import { parseReferenceAddress, referenceIpInRange } from "./reference-ip.js";

const alice: ReferenceSubject = {
  authorities: ["ROLE_USER", "ROLE_SALES", "orders:read"],
  remoteAddress: "10.1.2.3",
  zeroTrustAction: undefined,
};
const anonymous: ReferenceSubject = {
  authorities: undefined,
  remoteAddress: "192.168.0.9",
  zeroTrustAction: undefined,
};
const ev = (source: string, subject: ReferenceSubject = alice): boolean =>
  evaluateReferenceSource(source, subject);

describe("reference expressions", () => {
  it("checks roles (with or without the ROLE_ prefix) and authorities", () => {
    expect(ev("hasRole('USER')")).toBe(true);
    expect(ev("hasRole('ROLE_USER')")).toBe(true);
    expect(ev("hasRole('ADMIN')")).toBe(false);
    expect(ev("hasAnyRole('ADMIN', 'SALES')")).toBe(true);
    expect(ev("hasAuthority('orders:read')")).toBe(true);
    expect(ev("hasAuthority('USER')")).toBe(false);
    expect(ev("hasAnyAuthority('ROLE_ADMIN','ROLE_SALES')")).toBe(true);
    expect(ev("hasAnyAuthority('ROLE_ADMIN','ROLE_HR')")).toBe(false);
    expect(ev("hasRole('USER')", anonymous)).toBe(false);
  });

  it("knows authentication, permitAll and denyAll", () => {
    expect(ev("isAuthenticated()")).toBe(true);
    expect(ev("isAuthenticated()", anonymous)).toBe(false);
    expect(ev("isAnonymous()", anonymous)).toBe(true);
    expect(ev("isFullyAuthenticated()")).toBe(true);
    expect(ev("permitAll", anonymous)).toBe(true);
    expect(ev("denyAll")).toBe(false);
  });

  it("applies !, and, or with the usual precedence and parentheses", () => {
    expect(ev("hasRole('ADMIN') or hasRole('USER') and hasRole('SALES')")).toBe(true);
    expect(ev("(hasRole('ADMIN') or hasRole('USER')) and hasRole('HR')")).toBe(false);
    expect(ev("!hasRole('ADMIN')")).toBe(true);
    expect(ev("!!hasRole('ADMIN')")).toBe(false);
    expect(ev("not hasRole('USER') OR hasRole('HR')")).toBe(false);
    expect(ev("hasRole('USER') && !hasRole('HR') || denyAll")).toBe(true);
  });

  it("reads the zero-trust action, an absent one as PENDING_ANALYSIS", () => {
    const blocked = { ...alice, zeroTrustAction: "BLOCK" as const };
    const challenged = { ...alice, zeroTrustAction: "CHALLENGE" as const };
    expect(ev("#ai.isBlocked()", blocked)).toBe(true);
    expect(ev("#ai.isBlocked()")).toBe(false);
    expect(ev("#ai.isPendingAnalysis()")).toBe(true);
    expect(ev("isAuthenticated() and !#ai.needsChallenge()")).toBe(true);
    expect(ev("isAuthenticated() and !#ai.needsChallenge()", challenged)).toBe(false);
    expect(ev("needsChallenge()", challenged)).toBe(true);
    expect(ev("#ai.isAllowed()", { ...alice, zeroTrustAction: "ALLOW" })).toBe(true);
    expect(ev("isAllowed()")).toBe(false);
    expect(ev("#ai.hasAction('allow')", { ...alice, zeroTrustAction: "ALLOW" })).toBe(true);
    expect(ev("#ai.hasActionIn('BLOCK', 'ESCALATE')", blocked)).toBe(true);
    expect(ev("#ai.hasActionIn('BLOCK', 'ESCALATE')", challenged)).toBe(false);
    expect(ev("#ai.hasActionOrDefault('ALLOW', 'ALLOW')")).toBe(true);
    expect(ev("#ai.hasActionOrDefault('ALLOW', 'ALLOW')", blocked)).toBe(false);
  });

  it("matches the remote address against a CIDR", () => {
    expect(ev("hasIpAddress('10.0.0.0/8')")).toBe(true);
    expect(ev("hasIpAddress('10.0.0.0/8')", anonymous)).toBe(false);
    expect(ev("hasIpAddress('10.0.0.0/8')", { ...alice, remoteAddress: "::ffff:10.9.8.7" })).toBe(true);
    expect(ev("hasIpAddress('10.0.0.0/8')", { ...alice, remoteAddress: "2001:db8::1" })).toBe(false);
  });

  it("throws on functions it does not know and on malformed input", () => {
    expect(() => ev("hasPermission('orders','read')")).toThrow();
    expect(() => ev("T(java.lang.Runtime)")).toThrow();
    expect(() => ev("hasRole('USER'")).toThrow();
    expect(() => ev("hasRole('USER') hasRole('X')")).toThrow();
    expect(() => ev("hasRole(USER)")).toThrow();
  });
});

describe("reference addresses", () => {
  it("parses IPv4, IPv6 and IPv4-mapped IPv6", () => {
    expect(parseReferenceAddress("10.0.0.1")?.bytes).toEqual([10, 0, 0, 1]);
    expect(parseReferenceAddress("::ffff:10.0.0.1")?.bytes).toEqual([10, 0, 0, 1]);
    expect(parseReferenceAddress("::1")?.bytes).toEqual([...new Array(15).fill(0), 1]);
    expect(parseReferenceAddress("[fe80::1%eth0]")?.bytes.length).toBe(16);
    expect(parseReferenceAddress("256.0.0.1")).toBeUndefined();
    expect(parseReferenceAddress("1:2:3")).toBeUndefined();
    expect(parseReferenceAddress("1::2::3")).toBeUndefined();
  });

  it("compares prefixes within one family", () => {
    expect(referenceIpInRange("10.255.0.1", "10.0.0.0/8")).toBe(true);
    expect(referenceIpInRange("11.0.0.1", "10.0.0.0/8")).toBe(false);
    expect(referenceIpInRange("192.168.1.7", "192.168.1.0/25")).toBe(true);
    expect(referenceIpInRange("192.168.1.200", "192.168.1.0/25")).toBe(false);
    expect(referenceIpInRange("2001:db8::5", "2001:db8::/32")).toBe(true);
    expect(referenceIpInRange("2001:db9::5", "2001:db8::/32")).toBe(false);
    expect(referenceIpInRange("10.0.0.1", "10.0.0.1")).toBe(true);
    expect(referenceIpInRange("10.0.0.1", "::/0")).toBe(false);
    expect(referenceIpInRange("not-an-ip", "10.0.0.0/8")).toBe(false);
  });
});
