import { Clock } from "@keyward/core/ports";
import { ManualClock } from "@keyward/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IdentityTestServer, startIdentityServer } from "../identity-test-server.js";
import {
  decodeJwt,
  getWithBearer,
  guardedDemoSecurity,
  JSON_HEADERS,
  restLogin,
} from "./security-test-support.js";

// Access- and refresh-token expiry over HTTP, with a ManualClock instead of waiting.
const ENDPOINTS = ["/api/me", "/api/data"] as const;

describe("JWT expiry (ManualClock)", () => {
  const clock = new ManualClock();
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer({
      security: guardedDemoSecurity,
      register: (c) => c.registerInstance(Clock, clock),
    });
  });
  afterAll(() => server.close());

  it("accepts a token until exp plus the 30 s skew, then answers 401 TOKEN_EXPIRED", async () => {
    const { accessToken, refreshToken } = await restLogin(server.url);
    const { payload } = decodeJwt(accessToken);
    expect((payload.exp as number) - (payload.iat as number)).toBe(15 * 60);

    clock.advance(15 * 60_000 + 20_000);
    expect((await getWithBearer(server.url, "/api/data", accessToken)).status).toBe(200);

    clock.advance(20_000);
    for (const path of ENDPOINTS) {
      const res = await getWithBearer(server.url, path, accessToken);
      expect(res.status, path).toBe(401);
      expect(res.body.code).toBe("TOKEN_EXPIRED");
    }
    const rest = await getWithBearer(server.url, "/api/data", accessToken);
    expect(rest.wwwAuthenticate).toBe('Bearer error="invalid_token"');

    // The refresh token (7 days) still gets a fresh pair.
    const res = await fetch(`${server.url}/api/token/refresh`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ refreshToken }),
    });
    expect(res.status).toBe(200);
    const pair = (await res.json()) as { accessToken: string };
    expect((await getWithBearer(server.url, "/api/data", pair.accessToken)).status).toBe(200);
  });

  it("refuses an expired refresh token with 401 INVALID_TOKEN", async () => {
    const { refreshToken } = await restLogin(server.url);
    clock.advance(7 * 24 * 60 * 60_000 + 1_000);
    const res = await fetch(`${server.url}/api/token/refresh`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ refreshToken }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "INVALID_TOKEN" });
  });
});
