import { describe, expect, it } from "vitest";
import type { Authentication } from "../../identity/authentication/authentication.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { parseDeviceId, policyContextFrom } from "./mfa-policy-context.js";

const primary: Authentication = {
  userId: "u1",
  username: "admin",
  authorities: ["ROLE_ADMIN"],
  method: "form",
  authenticatedAt: 1_000,
  factors: [{ type: "pwd", at: 1_000 }],
};
const flow = { typeName: "mfa", factors: ["OTT", "PASSKEY"] as const, requiredFactors: 1 };

function exchange(headers: Record<string, string | undefined>): HttpExchange {
  return new HttpExchange({ method: "post", url: "/login?x=1", headers, remoteAddress: "203.0.113.7" });
}

describe("policyContextFrom", () => {
  it("exposes the request, the user, the primary authentication and the flow", () => {
    const ctx = policyContextFrom(
      exchange({ "X-Device-Id": "3f1c2a9e-7b4d-4c1a-9f00-0123456789ab", "User-Agent": "Firefox/1" }),
      primary,
      flow,
      "verified-cookie-device-id",
    );
    expect(ctx).toEqual({
      request: {
        remoteAddress: "203.0.113.7",
        deviceId: "verified-cookie-device-id",
        deviceHint: "3f1c2a9e-7b4d-4c1a-9f00-0123456789ab",
        userAgent: "Firefox/1",
        path: "/login",
        method: "POST",
      },
      user: { userId: "u1", username: "admin", authorities: ["ROLE_ADMIN"] },
      primary,
      flow: { typeName: "mfa", factors: ["OTT", "PASSKEY"], requiredFactors: 1 },
    });
    expect(Object.isFrozen(ctx)).toBe(true);
    expect(Object.isFrozen(ctx.request)).toBe(true);
    expect(Object.isFrozen(ctx.user.authorities)).toBe(true);
    expect(Object.isFrozen(ctx.flow.factors)).toBe(true);
  });

  it("drops a hostile device id and an empty user agent, and cuts a long user agent", () => {
    const hostile = policyContextFrom(
      exchange({ "x-device-id": "<script>alert(1)</script>", "user-agent": "" }),
      primary,
      flow,
    );
    expect(hostile.request.deviceHint).toBeUndefined();
    expect(hostile.request.userAgent).toBeUndefined();
    const long = policyContextFrom(exchange({ "user-agent": "a".repeat(10_000) }), primary, flow);
    expect(long.request.deviceHint).toBeUndefined();
    expect(long.request.userAgent).toHaveLength(512);
  });

  it("never takes the X-Device-Id header as the device id: only a verified cookie id is one", () => {
    const ctx = policyContextFrom(exchange({ "x-device-id": "laptop-1" }), primary, flow);
    expect(ctx.request).toMatchObject({ deviceId: undefined, deviceHint: "laptop-1" });
  });
});

describe("parseDeviceId", () => {
  it("accepts 1-128 characters of [A-Za-z0-9._-]", () => {
    for (const ok of ["a", "device-1.2_3", "A".repeat(128), "3f1c2a9e-7b4d-4c1a-9f00-0123456789ab"]) {
      expect(parseDeviceId(ok), ok).toBe(ok);
    }
  });

  it("answers undefined for anything else", () => {
    const bad: unknown[] = [
      undefined,
      null,
      42,
      ["abc"],
      "",
      "A".repeat(129),
      "dev ice",
      "dev\nice",
      "dev\u0000ice",
      "../../etc/passwd",
      "a,b",
      "dévice",
      "' OR 1=1 --",
      "x".repeat(100_000),
    ];
    for (const value of bad) expect(parseDeviceId(value), String(value).slice(0, 20)).toBeUndefined();
  });
});
