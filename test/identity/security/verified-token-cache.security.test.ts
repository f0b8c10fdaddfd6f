import { Clock } from "@keyward/core/ports";
import { ManualClock } from "@keyward/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IdentityTestServer, startIdentityServer } from "../identity-test-server.js";
import { getWithBearer, guardedDemoSecurity, JSON_HEADERS, restLogin } from "./security-test-support.js";

// The TokenService keeps verified access tokens (signature and claims) to skip the signature check
// when a token comes back. Over HTTP: a token the server has just served (so it is cached) is
// refused on the very next request once revoked by any path, and once expired.
describe("bearer tokens the server verified before: revocation and expiry still win", () => {
  const clock = new ManualClock();
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer({
      security: guardedDemoSecurity,
      register: (c) => c.registerInstance(Clock, clock),
    });
  });
  afterAll(() => server.close());

  const post = async (path: string, body: unknown, bearer?: string) =>
    (
      await fetch(server.url + path, {
        method: "POST",
        headers: { ...JSON_HEADERS, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
        body: JSON.stringify(body),
      })
    ).status;
  const me = async (token: string) => {
    const res = await getWithBearer(server.url, "/api/me", token);
    return res.status === 200 ? `200 ${String(res.body.username)}` : `${res.status} ${String(res.body.code)}`;
  };

  it("the revoke endpoint (access token): refused on the next request", async () => {
    const { accessToken } = await restLogin(server.url);
    expect(await me(accessToken)).toBe("200 user");
    expect(await me(accessToken)).toBe("200 user");
    expect(await post("/api/token/revoke", {}, accessToken)).toBe(200);
    expect(await me(accessToken)).toBe("401 INVALID_TOKEN");
  });

  it("the revoke endpoint (refresh token only): the family's served access token is refused next", async () => {
    const { accessToken, refreshToken } = await restLogin(server.url);
    expect(await me(accessToken)).toBe("200 user");
    expect(await post("/api/token/revoke", { refreshToken })).toBe(200);
    expect(await me(accessToken)).toBe("401 INVALID_TOKEN");
  });

  it("bearer logout (/api/logout and /logout): refused on the next request; other sign-ins go on", async () => {
    const other = await restLogin(server.url);
    for (const path of ["/api/logout", "/logout"]) {
      const { accessToken } = await restLogin(server.url);
      expect(await me(accessToken)).toBe("200 user");
      expect(await post(path, {}, accessToken)).toBe(200);
      expect(await me(accessToken), path).toBe("401 INVALID_TOKEN");
    }
    expect(await me(other.accessToken)).toBe("200 user");
  });

  it("expiry (ManualClock): served up to exp + skew, TOKEN_EXPIRED from then on", async () => {
    const { accessToken } = await restLogin(server.url);
    expect(await me(accessToken)).toBe("200 user");
    const { exp } = JSON.parse(Buffer.from(accessToken.split(".")[1]!, "base64url").toString()) as {
      exp: number;
    };
    const skewMs = 30_000;
    clock.set(exp * 1000 + skewMs - 1000);
    expect(await me(accessToken)).toBe("200 user");
    clock.set(exp * 1000 + skewMs);
    expect(await me(accessToken)).toBe("401 TOKEN_EXPIRED");
  });
});
