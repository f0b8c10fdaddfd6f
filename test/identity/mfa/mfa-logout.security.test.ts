import { currentAuthentication } from "@keyward/core";
import {
  MfaDecision,
  type MfaPolicyProvider,
  MfaPolicyProvider as MfaPolicyProviderToken,
} from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  codeAfter,
  csrfOfSession,
  demoSecurity,
  type IdentityTestServer,
  JSON_ACCEPT,
  MFA_COOKIE,
  me,
  newOutboxFile,
  primaryForm,
  startMfaServer,
  verify,
} from "./mfa-test-support.js";

const ESCALATION_COOKIE = "PLATFORM_ESCALATION";

/** A client that holds nothing but a copy of the victim's PLATFORM_MFA cookie (and reads the mailed code). */
async function cookieThief(url: string, stolen: string): Promise<{ thief: Browser; csrf: string }> {
  const thief = new Browser(url);
  const csrf = await csrfOfSession(thief);
  thief.cookies.set(MFA_COOKIE, stolen);
  return { thief, csrf };
}

function clears(res: Response, cookie: string): boolean {
  return res.headers.getSetCookie().some((c) => c.startsWith(`${cookie}=;`) && /max-age=0/i.test(c));
}

// Issue #12, item 8: a pending step-up must not survive logout, and completing one upgrades only a
// sign-in that is still alive (never a session made for whoever holds the cookie and the code).
describe("logout ends pending step-ups; completion needs a live sign-in", () => {
  let s: IdentityTestServer;
  const file = newOutboxFile();
  beforeAll(async () => {
    s = await startMfaServer({
      outbox: file,
      security: demoSecurity,
      properties: { "platform.auth.mfa.requiredAuthorities": "" },
      routes: (routes) => {
        const handler = (ex: Parameters<typeof currentAuthentication>[0]) => ({
          factors: currentAuthentication(ex)?.factors.map((f) => f.type),
        });
        routes.add({ method: "GET", path: "/account/security", handler });
        routes.add({ method: "GET", path: "/api/account/security", handler });
      },
    });
  });
  afterAll(() => s.close());

  /** A form sign-in that met a step-up: the browser, the mailed code and the binding cookie. */
  async function sessionStepUp(): Promise<{ b: Browser; code: string; stolen: string }> {
    const b = new Browser(s.url);
    await primaryForm(b, "user", "password");
    const { result, code } = await codeAfter(file, "user", () =>
      b.fetch("/account/security", { headers: { ...JSON_ACCEPT } }),
    );
    expect(result.status).toBe(401);
    return { b, code, stolen: b.cookies.get(MFA_COOKIE)! };
  }

  /** A REST (token) sign-in that met a step-up. */
  async function bearerStepUp() {
    const b = new Browser(s.url);
    const login = await b.postJson("/api/login", { username: "user", password: "password" });
    const tokens = (await login.json()) as { accessToken: string; refreshToken: string };
    const bearer = { authorization: `Bearer ${tokens.accessToken}` };
    const { result, code } = await codeAfter(file, "user", () =>
      b.fetch("/api/account/security", { headers: { ...bearer, ...JSON_ACCEPT } }),
    );
    expect(result.status).toBe(401);
    return { b, code, tokens, bearer, stolen: b.cookies.get(MFA_COOKIE)! };
  }

  it("session logout ends the step-up and clears PLATFORM_MFA: the cookie and the code sign nobody in", async () => {
    const { b, code, stolen } = await sessionStepUp();
    const out = await b.postForm("/logout", { _csrf: await csrfOfSession(b) }, { ...JSON_ACCEPT });
    expect(out.status).toBe(200);
    expect(clears(out, MFA_COOKIE)).toBe(true);
    const { thief, csrf } = await cookieThief(s.url, stolen);
    const done = await verify(thief, csrf, code);
    expect(done.status).toBe(401);
    expect(await done.json()).toMatchObject({ code: "MFA_SESSION_EXPIRED" });
    expect((await me(thief)).status).toBe(401);
  });

  it("after a logout that did not carry the cookie, the copy is refused: MFA_SIGN_IN_ENDED, nobody signed in", async () => {
    const { b, code, stolen } = await sessionStepUp();
    b.cookies.delete(MFA_COOKIE);
    expect((await b.postForm("/logout", { _csrf: await csrfOfSession(b) }, { ...JSON_ACCEPT })).status).toBe(
      200,
    );
    const { thief, csrf } = await cookieThief(s.url, stolen);
    const done = await verify(thief, csrf, code);
    expect(done.status).toBe(401);
    expect(await done.json()).toMatchObject({ code: "MFA_SIGN_IN_ENDED" });
    expect((await me(thief)).status).toBe(401);
  });

  it("without any logout, another client with the cookie and the code is refused: it never gets the victim's session", async () => {
    const { b, code, stolen } = await sessionStepUp();
    const { thief, csrf } = await cookieThief(s.url, stolen);
    const done = await verify(thief, csrf, code);
    expect(await done.json()).toMatchObject({ code: "MFA_SIGN_IN_ENDED" });
    expect((await me(thief)).status).toBe(401);
    // The victim's own session is untouched (and was not upgraded).
    expect((await me(b)).body).toMatchObject({ username: "user" });
  });

  it("bearer-only logout: the copied cookie and the code mint no new token pair", async () => {
    const { code, bearer, stolen } = await bearerStepUp();
    // A pure token client: no cookie jar on the logout.
    const out = await fetch(`${s.url}/api/logout`, {
      method: "POST",
      headers: { ...bearer, "content-type": "application/json", ...JSON_ACCEPT },
      body: "{}",
    });
    expect(out.status).toBe(200);
    const { thief, csrf } = await cookieThief(s.url, stolen);
    const done = await verify(thief, csrf, code);
    const body = (await done.json()) as Record<string, unknown>;
    expect(done.status).toBe(401);
    expect(body).toMatchObject({ code: "MFA_SIGN_IN_ENDED" });
    expect(body.accessToken).toBeUndefined();
  });

  it("bearer logout with the client's cookies ends the step-up and clears PLATFORM_MFA", async () => {
    const { b, code, bearer, stolen } = await bearerStepUp();
    const out = await b.postJson("/api/logout", {}, bearer);
    expect(out.status).toBe(200);
    expect(clears(out, MFA_COOKIE)).toBe(true);
    const { thief, csrf } = await cookieThief(s.url, stolen);
    expect(await (await verify(thief, csrf, code)).json()).toMatchObject({ code: "MFA_SESSION_EXPIRED" });
  });

  it("a step-up after the refresh token was revoked mints nothing, even for the rightful client", async () => {
    const { b, code, tokens } = await bearerStepUp();
    const revoked = await b.postJson("/api/token/revoke", { refreshToken: tokens.refreshToken });
    expect(revoked.status).toBe(200);
    const done = await verify(b, await csrfOfSession(b), code);
    const body = (await done.json()) as Record<string, unknown>;
    expect([done.status, body.code, body.accessToken]).toEqual([401, "MFA_SIGN_IN_ENDED", undefined]);
  });

  it("a completed bearer step-up continues the sign-in: logging out with the new token ends the old refresh token too", async () => {
    const { b, code, tokens, bearer } = await bearerStepUp();
    const done = await b.postJson("/login/mfa-ott", { token: code }, bearer);
    expect(done.status).toBe(200);
    const upgraded = (await done.json()) as { accessToken: string };
    const auth = { authorization: `Bearer ${upgraded.accessToken}` };
    expect((await b.fetch("/api/account/security", { headers: auth })).status).toBe(200);
    expect((await b.postJson("/api/logout", {}, auth)).status).toBe(200);
    const refresh = await b.postJson("/api/token/refresh", { refreshToken: tokens.refreshToken });
    expect([refresh.status, ((await refresh.json()) as { code: string }).code]).toEqual([
      401,
      "INVALID_TOKEN",
    ]);
  });
});

/** Escalates `user`'s sign-ins; everyone else passes (admin reviews). */
const reviewUser: MfaPolicyProvider = {
  evaluateInitialMfaRequirement: async (ctx) =>
    ctx.user.username === "user" ? MfaDecision.escalated("review") : MfaDecision.noMfaRequired(),
};

describe("logout ends a held (escalated) sign-in", () => {
  let s: IdentityTestServer;
  beforeAll(async () => {
    s = await startMfaServer({
      outbox: newOutboxFile(),
      security: demoSecurity,
      register: (c) => c.registerInstance(MfaPolicyProviderToken, reviewUser),
    });
  });
  afterAll(() => s.close());

  it("an approval after the logout signs nobody in, not even a copy of the escalation cookie", async () => {
    const user = new Browser(s.url);
    expect((await primaryForm(user, "user", "password", true)).status).toBe(202);
    const stolen = user.cookies.get(ESCALATION_COOKIE)!;
    const out = await user.postForm("/logout", { _csrf: await csrfOfSession(user) }, { ...JSON_ACCEPT });
    expect(out.status).toBe(200);
    expect(clears(out, ESCALATION_COOKIE)).toBe(true);
    const admin = new Browser(s.url);
    await primaryForm(admin, "admin", "admin");
    const csrf = await csrfOfSession(admin);
    const list = (await (
      await admin.fetch("/admin/api/mfa/escalations", { headers: { ...JSON_ACCEPT } })
    ).json()) as { username: string }[];
    expect(list.filter((e) => e.username === "user")).toEqual([]);
    const copy = new Browser(s.url);
    copy.cookies.set(ESCALATION_COOKIE, stolen);
    const id = stolen.split(".")[0]!;
    const approve = await admin.postJson(
      `/admin/api/mfa/escalations/${id}/approve`,
      {},
      { "x-csrf-token": csrf },
    );
    expect(approve.status).toBe(409);
    const poll = await copy.fetch("/api/mfa/escalation", { headers: { ...JSON_ACCEPT } });
    expect(poll.status).toBe(401);
    expect((await me(copy)).status).toBe(401);
  });
});
