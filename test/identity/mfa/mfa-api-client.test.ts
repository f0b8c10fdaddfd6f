import { API_MFA_PREFIX } from "@keyward/cli";
import { AuditLog } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiMfaRequired,
  bindingHeaders,
  json,
  type RunningDemo,
  startDemo,
} from "../../support/demo-server.js";

// A client that speaks only JSON and headers (no cookie jar, no HTML, no CSRF token) completes the
// demo's MFA at /api/login and gets tokens: the curl sequence of docs/authentication.md ("MFA for
// API clients"), request for request. Node's fetch keeps no cookies, like curl without -b/-c.

let demo: RunningDemo;
beforeAll(async () => {
  demo = await startDemo();
});
afterAll(() => demo.close());

const url = (path: string) => `${demo.base}${path}`;

describe("docs/authentication.md, MFA for API clients: the curl sequence", () => {
  it("user orders; admin signs in with password + mailed code, reads and cancels user's order", async () => {
    // 1. user (no MFA) places an order.
    const userLogin = await fetch(
      url("/api/login"),
      json("POST", { username: "user", password: "password" }),
    );
    const { accessToken: userToken } = (await userLogin.json()) as { accessToken: string };
    expect(userLogin.status).toBe(200);
    const placed = await fetch(
      url("/api/orders"),
      json("POST", { item: "tea", quantity: 2 }, { authorization: `Bearer ${userToken}` }),
    );
    const order = (await placed.json()) as { id: string; owner: string; item: string; quantity: number };
    expect(placed.status).toBe(201);
    expect(order).toMatchObject({ owner: "user", item: "tea", quantity: 2 });

    // 2. admin's password: MFA required, a code is mailed at once.
    const { result: login, code } = await demo.codeAfter("admin", () =>
      fetch(url("/api/login"), json("POST", { username: "admin", password: "admin" })),
    );
    const mfa = (await login.json()) as ApiMfaRequired & Record<string, unknown>;
    expect(login.status, JSON.stringify(mfa)).toBe(200);
    expect(mfa).toMatchObject({
      mfaRequired: true,
      state: "OTT_CHALLENGE",
      mfaSessionId: expect.any(String),
      mfaBinding: expect.stringMatching(new RegExp(`^${mfa.mfaSessionId}\\.`)),
      endpoints: {
        status: `${API_MFA_PREFIX}/api/mfa/status`,
        selectFactor: `${API_MFA_PREFIX}/mfa/select-factor`,
        cancel: `${API_MFA_PREFIX}/mfa/cancel`,
        verifyOtt: `${API_MFA_PREFIX}/login/mfa-ott`,
        generateCode: `${API_MFA_PREFIX}/mfa/ott/generate-code`,
      },
    });
    expect(mfa).not.toHaveProperty("accessToken");

    // 3. (the code came from the outbox) 4. the code with the two headers: the tokens.
    const verified = await fetch(
      url("/api/token-mfa/login/mfa-ott"),
      json("POST", { token: code }, bindingHeaders(mfa)),
    );
    const tokens = (await verified.json()) as Record<string, unknown>;
    expect(verified.status, JSON.stringify(tokens)).toBe(200);
    expect(tokens).toMatchObject({
      success: true,
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      tokenType: "Bearer",
      expiresIn: 900,
      refreshExpiresIn: expect.any(Number),
    });
    const admin = { authorization: `Bearer ${tokens.accessToken}` };

    // 5. who am I, another user's order, cancel it.
    const me = await fetch(url("/api/me"), { headers: admin });
    expect(await me.json()).toMatchObject({ username: "admin", method: "mfa", factors: ["pwd", "otp"] });
    const read = await fetch(url(`/api/orders/${order.id}`), { headers: admin });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: order.id, owner: "user" });
    const cancelled = await fetch(url(`/api/orders/${order.id}`), { method: "DELETE", headers: admin });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toEqual({ cancelled: true });
    expect((await fetch(url(`/api/orders/${order.id}`), { headers: admin })).status).toBe(404);
    // The refresh token works like any other sign-in's.
    const refreshed = await fetch(
      url("/api/token/refresh"),
      json("POST", { refreshToken: tokens.refreshToken }),
    );
    expect(refreshed.status).toBe(200);
  });

  it("a wrong code first: 401 MFA_FACTOR_VERIFICATION_FAILED with attemptsMade/maxAttempts, then the code", async () => {
    const { result, code } = await demo.codeAfter("admin", () =>
      fetch(url("/api/login"), json("POST", { username: "admin", password: "admin" })),
    );
    const mfa = (await result.json()) as ApiMfaRequired;
    const wrong = code === "000000" ? "111111" : "000000";
    const failed = await fetch(
      url(mfa.endpoints.verifyOtt),
      json("POST", { token: wrong }, bindingHeaders(mfa)),
    );
    expect(failed.status).toBe(401);
    expect(await failed.json()).toMatchObject({
      success: false,
      code: "MFA_FACTOR_VERIFICATION_FAILED",
      attemptsMade: 1,
      maxAttempts: 5,
    });
    const ok = await fetch(url(mfa.endpoints.verifyOtt), json("POST", { token: code }, bindingHeaders(mfa)));
    expect(ok.status).toBe(200);
  });

  it("status, generateCode, selectFactor and cancel take the same headers", async () => {
    const { result } = await demo.codeAfter("admin", () =>
      fetch(url("/api/login"), json("POST", { username: "admin", password: "admin" })),
    );
    const mfa = (await result.json()) as ApiMfaRequired;
    const headers = bindingHeaders(mfa);
    const status = await fetch(url(mfa.endpoints.status), { headers });
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ mfaSessionId: mfa.mfaSessionId, state: "OTT_CHALLENGE" });
    const { result: again, code } = await demo.codeAfter("admin", () =>
      fetch(url(mfa.endpoints.generateCode), { method: "POST", headers }),
    );
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ mfaRequired: true, state: "OTT_CHALLENGE" });
    expect(code).toMatch(/^\d{6}$/);
    const { result: selected } = await demo.codeAfter("admin", () =>
      fetch(url(mfa.endpoints.selectFactor), json("POST", { factorType: "OTT" }, headers)),
    );
    expect(selected.status).toBe(200);
    const cancel = await fetch(url(mfa.endpoints.cancel), { method: "POST", headers });
    expect(cancel.status).toBe(200);
    expect(await cancel.json()).toMatchObject({ success: true, state: "MFA_CANCELLED" });
    const ended = await fetch(url(mfa.endpoints.status), { headers });
    expect(ended.status).toBe(401);
    expect(await ended.json()).toMatchObject({ code: "MFA_SESSION_EXPIRED" });
  });
});

describe("bearer step-up with the same headers", () => {
  it("401 MFA_CHALLENGE_REQUIRED carries mfaBinding and endpoints; the code with the headers upgrades the token", async () => {
    const login = await fetch(url("/api/login"), json("POST", { username: "user", password: "password" }));
    const { accessToken } = (await login.json()) as { accessToken: string };
    const bearer = { authorization: `Bearer ${accessToken}` };
    const { result: challenged, code } = await demo.codeAfter("user", () =>
      fetch(url("/api/account/security"), { headers: bearer }),
    );
    const challenge = (await challenged.json()) as ApiMfaRequired & { code: string };
    expect(challenged.status).toBe(401);
    expect(challenge).toMatchObject({
      code: "MFA_CHALLENGE_REQUIRED",
      mfaBinding: expect.stringMatching(new RegExp(`^${challenge.mfaSessionId}\\.`)),
      endpoints: { verifyOtt: "/login/mfa-ott" },
    });
    const upgraded = await fetch(
      url(challenge.endpoints.verifyOtt),
      json("POST", { token: code }, { ...bearer, ...bindingHeaders(challenge) }),
    );
    const pair = (await upgraded.json()) as { accessToken: string; stepUp: boolean };
    expect(upgraded.status, JSON.stringify(pair)).toBe(200);
    expect(pair).toMatchObject({ success: true, stepUp: true, accessToken: expect.any(String) });
    const retried = await fetch(url("/api/account/security"), {
      headers: { authorization: `Bearer ${pair.accessToken}` },
    });
    expect(retried.status).toBe(200);
  });
});

describe("/api/mfa/config advertises only URLs that answer", () => {
  // POST endpoints without a flow answer 401 MFA_SESSION_REQUIRED (or a login's 400/401); pages 200/302.
  const POSTS = new Set([
    "primary.formLoginProcessing",
    "primary.restLoginProcessing",
    "mfa.cancel",
    "ott.loginProcessing",
    "ott.codeGeneration",
    "passkey.loginProcessing",
    "passkey.registrationProcessing",
    "webauthn.assertionOptions",
    "webauthn.assertionVerify",
    "api.selectFactor",
    "api.cancel",
    "api.requestOttCode",
    "api.logout",
  ]);

  for (const config of ["/api/mfa/config", "/api/token-mfa/api/mfa/config"]) {
    it(`every URL of ${config} is served`, async () => {
      const answer = await fetch(url(config));
      const body = (await answer.json()) as Record<string, unknown>;
      expect(answer.status).toBe(200);
      expect(body).toHaveProperty("api.status");
      const unserved: string[] = [];
      for (const [group, urls] of Object.entries(body)) {
        if (typeof urls !== "object" || urls === null || group === "flow") continue;
        for (const [key, path] of Object.entries(urls as Record<string, string>)) {
          const post = POSTS.has(`${group}.${key}`);
          // A session chain wants its CSRF token for a POST: take it from the flow's login page.
          const page = await fetch(
            url(String(body.primary && (body.primary as Record<string, string>).formLoginPage)),
          );
          const cookie = page.headers
            .getSetCookie()
            .map((c) => c.split(";")[0])
            .join("; ");
          const csrf = /<meta name="_csrf" content="([^"]+)">/.exec(await page.text())?.[1];
          const res = await fetch(url(path), {
            method: post ? "POST" : "GET",
            redirect: "manual",
            headers: {
              accept: "application/json",
              ...(post ? { "content-type": "application/json" } : {}),
              ...(cookie ? { cookie } : {}),
              ...(csrf ? { "x-csrf-token": csrf } : {}),
            },
            ...(post ? { body: "{}" } : {}),
          });
          if (res.status === 404 || res.status === 405 || res.status >= 500)
            unserved.push(`${group}.${key} ${path} ${res.status}`);
        }
      }
      expect(unserved).toEqual([]);
    });
  }
});

describe("MFA audit events carry the request's correlation id", () => {
  const audited = async (type: string, id: string) =>
    (await demo.platform.resolve(AuditLog).query({ type, limit: 100 })).some((e) => e.correlationId === id);

  it("decision, failed and verified factor, each with the id of the request that caused it", async () => {
    const { result: login, code } = await demo.codeAfter("admin", () =>
      fetch(
        url("/api/login"),
        json("POST", { username: "admin", password: "admin" }, { "x-request-id": "mfa-begin-1" }),
      ),
    );
    const mfa = (await login.json()) as ApiMfaRequired;
    expect(await audited("auth.mfa.decision", "mfa-begin-1")).toBe(true);
    expect(await audited("auth.mfa.code-sent", "mfa-begin-1")).toBe(true);
    const wrong = code === "000000" ? "111111" : "000000";
    const refused = await fetch(
      url("/api/token-mfa/login/mfa-ott"),
      json("POST", { token: wrong }, { ...bindingHeaders(mfa), "x-request-id": "mfa-wrong-2" }),
    );
    expect(refused.status).toBe(401);
    expect(await audited("auth.mfa.factor-failed", "mfa-wrong-2")).toBe(true);
    const verified = await fetch(
      url("/api/token-mfa/login/mfa-ott"),
      json("POST", { token: code }, { ...bindingHeaders(mfa), "x-request-id": "mfa-ok-3" }),
    );
    expect(verified.status).toBe(200);
    expect(await audited("auth.mfa.factor-verified", "mfa-ok-3")).toBe(true);
  });
});
