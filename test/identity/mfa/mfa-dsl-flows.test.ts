import type { RouteRegistry } from "@keyward/adapters-http";
import { antMatcher, currentAuthentication, notMatcher, type SecurityRegistry } from "@keyward/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt } from "../security/security-test-support.js";
import {
  Browser,
  codeAfter,
  csrfOfSession,
  type IdentityTestServer,
  JSON_ACCEPT,
  me,
  type MfaRequired,
  newOutboxFile,
  primaryForm,
  startMfaServer,
  verify,
} from "./mfa-test-support.js";

/**
 * The DSL rules of `.mfa()`, requiredFactors and typeName numbering are unit-tested next to the DSL
 * (security-registry.test.ts, mfa-rules.test.ts); these run the flows over HTTP.
 */

/** Two flows separated by urlPrefix: `/a` form + session, `/b` REST + tokens. */
function twoFlows(r: SecurityRegistry) {
  return r
    .mfa((m) =>
      m
        .name("a")
        .urlPrefix("/a")
        .primaryAuthentication((p) => p.formLogin())
        .ott(),
    )
    .session()
    .mfa((m) =>
      m
        .name("b")
        .urlPrefix("/b")
        .primaryAuthentication((p) => p.restLogin())
        .ott(),
    )
    .oauth2()
    .build();
}

/** Routes under each prefix answering who the chain saw. */
const whoRoutes = (routes: RouteRegistry) => {
  for (const path of ["/a/whoami", "/b/whoami"]) {
    routes.add({
      method: "GET",
      path,
      handler: (ex) => ({ user: currentAuthentication(ex)?.username ?? null }),
    });
  }
};

describe("two MFA flows separated by urlPrefix", () => {
  const file = newOutboxFile();
  let s: IdentityTestServer;
  beforeAll(async () => {
    s = await startMfaServer({ outbox: file, security: twoFlows, routes: whoRoutes });
  });
  afterAll(() => s.close());

  it("each prefix serves its own flow's config", async () => {
    const a = await (await fetch(`${s.url}/a/api/mfa/config`, { headers: JSON_ACCEPT })).json();
    const b = await (await fetch(`${s.url}/b/api/mfa/config`, { headers: JSON_ACCEPT })).json();
    expect(a).toMatchObject({
      urlPrefix: "/a",
      flow: { typeName: "mfa_a", factors: ["OTT"], requiredFactors: 1 },
      primary: { formLoginPage: "/a/login", formLoginProcessing: "/a/login" },
      ott: {
        challengeUi: "/a/mfa/challenge/ott",
        loginProcessing: "/a/login/mfa-ott",
        codeGeneration: "/a/mfa/ott/generate-code",
      },
      api: { status: "/a/api/mfa/status", config: "/a/api/mfa/config", cancel: "/a/mfa/cancel" },
    });
    expect(b).toMatchObject({
      urlPrefix: "/b",
      flow: { typeName: "mfa_b" },
      primary: { restLoginProcessing: "/b/api/mfa/login" },
      ott: { loginProcessing: "/b/login/mfa-ott" },
      api: { status: "/b/api/mfa/status", logout: "/b/api/logout" },
    });
    // The unprefixed URLs belong to no flow.
    expect((await fetch(`${s.url}/api/mfa/config`, { headers: JSON_ACCEPT })).status).toBe(404);
  });

  it("/a: form primary + OTT ends in a session on the /a chain", async () => {
    const b = new Browser(s.url);
    const { result, code } = await codeAfter(file, "admin", () =>
      primaryForm(b, "admin", "admin", false, "/a"),
    );
    expect(result.status).toBe(302);
    expect(result.headers.get("location")).toBe("/a/mfa/challenge/ott");
    const html = await (await b.fetch("/a/mfa/challenge/ott")).text();
    expect(html).toContain('action="/a/login/mfa-ott"');
    const csrf = /<meta name="_csrf" content="([^"]+)">/.exec(html)![1]!;
    const done = await b.postForm("/a/login/mfa-ott", { token: code, _csrf: csrf });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/");
    expect(await (await b.fetch("/a/whoami")).json()).toEqual({ user: "admin" });
    // /b is stateless: the /a session means nothing there.
    expect(await (await b.fetch("/b/whoami")).json()).toEqual({ user: null });
  });

  it("/b: REST primary + OTT ends in tokens whose amr includes otp", async () => {
    const b = new Browser(s.url);
    const { result, code } = await codeAfter(file, "admin", () =>
      b.postJson("/b/api/mfa/login", { username: "admin", password: "admin" }),
    );
    const step = (await result.json()) as MfaRequired & Record<string, unknown>;
    expect(result.status).toBe(200);
    expect(step).toMatchObject({
      mfaRequired: true,
      selectFactorUrl: "/b/mfa/select-factor",
      nextStepUrl: "/b/mfa/challenge/ott",
    });
    expect(step).not.toHaveProperty("accessToken");
    const status = await (await b.fetch("/b/api/mfa/status", { headers: JSON_ACCEPT })).json();
    expect(status).toMatchObject({ mfaSessionId: step.mfaSessionId, state: "OTT_CHALLENGE" });
    // Stateless chain: no CSRF token needed.
    const done = await b.postJson("/b/login/mfa-ott", { token: code });
    const body = (await done.json()) as Record<string, unknown>;
    expect(done.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      success: true,
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      tokenType: "Bearer",
    });
    const { payload } = decodeJwt(body.accessToken as string);
    expect(payload).toMatchObject({ preferred_username: "admin", auth_method: "mfa" });
    expect(payload.amr).toEqual(expect.arrayContaining(["pwd", "otp"]));
    const whoami = await fetch(`${s.url}/b/whoami`, {
      headers: { authorization: `Bearer ${body.accessToken}` },
    });
    expect(await whoami.json()).toEqual({ user: "admin" });
  });

  it("a flow's MFA session is not accepted by the other flow's endpoints", async () => {
    // Each flow has its own chain, policy and final step: a context made by mfa_a must not be
    // finished by mfa_b (here: a form + session sign-in would come out as JWTs).
    // Primary step on /a (form + session), then the code presented at /b (tokens).
    const b = new Browser(s.url);
    const { code } = await codeAfter(file, "admin", () => primaryForm(b, "admin", "admin", true, "/a"));
    const crossed = await b.postJson("/b/login/mfa-ott", { token: code });
    const body = (await crossed.json()) as Record<string, unknown>;
    expect(crossed.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
    expect(body).not.toHaveProperty("accessToken");
    const status = await b.fetch("/b/api/mfa/status", { headers: JSON_ACCEPT });
    expect(status.status).toBeGreaterThanOrEqual(400);
  });
});

describe("MFA beside single login", () => {
  const file = newOutboxFile();
  let s: IdentityTestServer;
  beforeAll(async () => {
    s = await startMfaServer({
      outbox: file,
      security: (r) =>
        r
          .mfa((m) =>
            m
              .urlPrefix("/secure")
              .primaryAuthentication((p) => p.formLogin())
              .ott(),
          )
          .session()
          .form((f) =>
            f.defaultSuccessUrl("/").rawHttp((h) => h.securityMatcher(notMatcher(antMatcher("/secure/**")))),
          )
          .session()
          .build(),
    });
  });
  afterAll(() => s.close());

  it("user signs in on the single-login chain with the password alone", async () => {
    const b = new Browser(s.url);
    const res = await primaryForm(b, "user", "password");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect((await me(b)).body).toMatchObject({ username: "user", method: "form" });
  });

  it("admin on the single-login chain is handed into the MFA flow and completes it there", async () => {
    const b = new Browser(s.url);
    const { result, code } = await codeAfter(file, "admin", () => primaryForm(b, "admin", "admin", true));
    expect(await result.json()).toMatchObject({
      mfaRequired: true,
      nextStepUrl: "/secure/mfa/challenge/ott",
    });
    expect((await me(b)).status).toBe(401);
    const done = await verify(b, await csrfOfSession(b), code, {}, "/secure/login/mfa-ott");
    expect(done.status).toBe(200);
    expect((await me(b)).body).toMatchObject({ username: "admin", method: "mfa", factors: ["pwd", "otp"] });
  });

  it("admin may also start at the flow's own login page", async () => {
    const b = new Browser(s.url);
    const { result, code } = await codeAfter(file, "admin", () =>
      primaryForm(b, "admin", "admin", false, "/secure"),
    );
    expect(result.headers.get("location")).toBe("/secure/mfa/challenge/ott");
    const done = await verify(b, await csrfOfSession(b), code, {}, "/secure/login/mfa-ott");
    expect(done.status).toBe(200);
  });
});
