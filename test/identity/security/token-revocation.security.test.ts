import { Clock } from "@keyward/core/ports";
import { ManualClock } from "@keyward/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IdentityTestServer, startIdentityServer } from "../identity-test-server.js";
import { getWithBearer, guardedDemoSecurity, JSON_HEADERS, restLogin } from "./security-test-support.js";

/** The TokenService's default refresh race window. */
const REFRESH_RACE_WINDOW_MS = 5_000;

// Issue #12, items 9 and 10 over HTTP: parallel refreshes of one token, and what revoking a sign-in
// (logout, the revoke endpoint, reuse detection) refuses afterwards.
describe("refresh races and sign-in revocation over HTTP", () => {
  const clock = new ManualClock();
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer({
      security: guardedDemoSecurity,
      register: (c) => c.registerInstance(Clock, clock),
    });
  });
  afterAll(() => server.close());

  const post = async (path: string, body: unknown, bearer?: string) => {
    const res = await fetch(server.url + path, {
      method: "POST",
      headers: { ...JSON_HEADERS, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const refresh = (refreshToken: string) => post("/api/token/refresh", { refreshToken });
  const data = async (accessToken: string) =>
    (await getWithBearer(server.url, "/api/data", accessToken)).status;

  it("50 parallel refreshes of one token: exactly one 200, 49 × 401 REFRESH_TOKEN_RACE_LOST, the family lives on", async () => {
    const { refreshToken } = await restLogin(server.url);
    const answers = await Promise.all(Array.from({ length: 50 }, () => refresh(refreshToken)));
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    const lost = answers.filter((a) => a.status !== 200);
    expect(lost.map((a) => [a.status, a.body.code])).toEqual(
      Array.from({ length: 49 }, () => [401, "REFRESH_TOKEN_RACE_LOST"]),
    );
    const winner = won[0]!.body as { accessToken: string; refreshToken: string };
    expect(await data(winner.accessToken)).toBe(200);
    // The winner's refresh token keeps working.
    const next = await refresh(winner.refreshToken);
    expect(next.status).toBe(200);
    expect(await data(next.body.accessToken as string)).toBe(200);
  });

  it("an old token presented after the window is reuse: the family and all its access tokens are refused", async () => {
    const first = await restLogin(server.url);
    const second = await refresh(first.refreshToken);
    expect(second.status).toBe(200);
    clock.advance(REFRESH_RACE_WINDOW_MS);
    const reuse = await refresh(first.refreshToken);
    expect([reuse.status, reuse.body.code]).toEqual([401, "INVALID_TOKEN"]);
    expect((await refresh(second.body.refreshToken as string)).status).toBe(401);
    for (const accessToken of [first.accessToken, second.body.accessToken as string]) {
      const res = await getWithBearer(server.url, "/api/data", accessToken);
      expect([res.status, res.body.code]).toEqual([401, "INVALID_TOKEN"]);
    }
  });

  it("a bearer-only POST /api/logout revokes the family and the presented token; other sign-ins are untouched", async () => {
    const other = await restLogin(server.url);
    const first = await restLogin(server.url);
    const second = await refresh(first.refreshToken);
    const accessToken = second.body.accessToken as string;
    expect((await post("/api/logout", {}, accessToken)).status).toBe(200);
    expect(await refresh(second.body.refreshToken as string)).toMatchObject({
      status: 401,
      body: { code: "INVALID_TOKEN" },
    });
    for (const path of ["/api/data", "/api/me"]) {
      expect((await getWithBearer(server.url, path, accessToken)).status, path).toBe(401);
    }
    // An older access token of the same sign-in is refused too.
    expect(await data(first.accessToken)).toBe(401);
    expect(await data(other.accessToken)).toBe(200);
    expect((await refresh(other.refreshToken)).status).toBe(200);
  });

  it("a bearer caller's logout on a session chain (POST /logout) ends its token sign-in too", async () => {
    const { accessToken, refreshToken } = await restLogin(server.url);
    expect((await post("/logout", {}, accessToken)).status).toBe(200);
    expect(await data(accessToken)).toBe(401);
    expect((await refresh(refreshToken)).status).toBe(401);
  });

  it("revoking only the refresh token refuses the family's access tokens as well", async () => {
    const { accessToken, refreshToken } = await restLogin(server.url);
    expect((await post("/api/token/revoke", { refreshToken })).status).toBe(200);
    expect(await data(accessToken)).toBe(401);
  });
});
