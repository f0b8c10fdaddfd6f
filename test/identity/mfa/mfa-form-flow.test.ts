import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  codeAfter,
  type FailureBody,
  type IdentityTestServer,
  JSON_ACCEPT,
  me,
  MFA_COOKIE,
  mfaStatus,
  newOutboxFile,
  primaryForm,
  SESSION_COOKIE,
  startAdminMfa,
  startMfaServer,
  verify,
  wrongCode,
} from "./mfa-test-support.js";

describe("MFA flow in the demo: form primary + OTT code", () => {
  let s: IdentityTestServer;
  const file = newOutboxFile();
  beforeAll(async () => {
    s = await startMfaServer({ outbox: file });
  });
  afterAll(() => s.close());

  it("browser: admin's password leads to the code page; the emailed code completes sign-in", async () => {
    const b = new Browser(s.url);
    const { result: primary, code } = await codeAfter(file, "admin", () => primaryForm(b, "admin", "admin"));
    expect(primary.status).toBe(302);
    expect(primary.headers.get("location")).toBe("/mfa/challenge/ott");
    expect(code).toMatch(/^[0-9]{6}$/);
    expect(b.cookies.get(MFA_COOKIE)).toMatch(/^[^.]+\..+$/);
    const sessionBefore = b.cookies.get(SESSION_COOKIE);
    expect(sessionBefore).toBeDefined();
    // Not signed in yet.
    expect((await me(b)).status).toBe(401);

    const page = await b.fetch("/mfa/challenge/ott");
    expect(page.status).toBe(200);
    const html = await page.text();
    const csrf = /<meta name="_csrf" content="([^"]+)">/.exec(html)?.[1];
    expect(csrf).toBeDefined();
    expect(html).toMatch(/<div id="platform-page-config"[^>]*data-mfa-session-id="[^"]+"/);
    expect(html).toContain('name="token"');
    expect(html).toContain('id="verifyButton"');
    expect(html).toContain('name="mfaSessionId"');

    const done = await b.postForm("/login/mfa-ott", { token: code, _csrf: csrf! });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/");
    expect(b.cookies.get(SESSION_COOKIE)).toBeDefined();
    expect(b.cookies.get(SESSION_COOKIE)).not.toBe(sessionBefore);
    expect(b.cookies.has(MFA_COOKIE)).toBe(false);
    const who = await me(b);
    expect(who.status).toBe(200);
    expect(who.body).toMatchObject({ username: "admin", method: "mfa", factors: ["pwd", "otp"] });
    // The pre-login session id is dead: it never becomes the signed-in session (no fixation).
    const fixed = new Browser(s.url);
    fixed.cookies.set(SESSION_COOKIE, sessionBefore!);
    expect((await me(fixed)).status).toBe(401);
  });

  it("browser: a wrong code goes back to the code page with an error and the attempt count", async () => {
    const b = new Browser(s.url);
    const { code } = await codeAfter(file, "admin", () => primaryForm(b, "admin", "admin"));
    const csrf = /<meta name="_csrf" content="([^"]+)">/.exec(
      await (await b.fetch("/mfa/challenge/ott")).text(),
    )![1]!;
    const wrong = await b.postForm("/login/mfa-ott", { token: wrongCode(code), _csrf: csrf });
    expect(wrong.status).toBe(302);
    expect(wrong.headers.get("location")).toBe("/mfa/challenge/ott?error");
    const html = await (await b.fetch("/mfa/challenge/ott?error")).text();
    expect(html).toContain("Attempts: 1 of 5");
    expect(html).toContain('data-attempts-made="1"');
    expect((await b.postForm("/login/mfa-ott", { token: code, _csrf: csrf })).headers.get("location")).toBe(
      "/",
    );
  });

  it("MFA pages without a flow send the browser to the login page", async () => {
    for (const page of ["/mfa/challenge/ott", "/mfa/select-factor", "/mfa/ott/request-code-ui"]) {
      const res = await new Browser(s.url).fetch(page);
      expect(res.status, page).toBe(302);
      expect(res.headers.get("location"), page).toBe("/login");
    }
  });

  it("user (no MFA role) signs in with the password alone", async () => {
    const b = new Browser(s.url);
    const res = await primaryForm(b, "user", "password");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect(b.cookies.has(MFA_COOKIE)).toBe(false);
    expect((await me(b)).body).toMatchObject({ username: "user", method: "form", factors: ["pwd"] });
  });

  it("JSON: the MFA-required answer, a wrong code, then the right one", async () => {
    const { b, body, code, csrf } = await startAdminMfa(s, file);
    expect(body).toMatchObject({
      mfaRequired: true,
      selectFactorUrl: "/mfa/select-factor",
      status: "MFA_REQUIRED",
      nextStepUrl: "/mfa/challenge/ott",
    });
    expect(body.mfaSessionId).toEqual(expect.any(String));
    expect(b.cookies.get(MFA_COOKIE)?.startsWith(`${body.mfaSessionId}.`)).toBe(true);

    const wrong = await verify(b, csrf, wrongCode(code));
    expect(wrong.status).toBe(401);
    expect((await wrong.json()) as FailureBody).toMatchObject({
      success: false,
      failureType: expect.any(String),
      code: "MFA_FACTOR_VERIFICATION_FAILED",
      attemptsMade: 1,
      maxAttempts: 5,
    });
    expect((await mfaStatus(b)).body).toMatchObject({ attemptsMade: 1, state: "OTT_CHALLENGE" });

    const ok = await verify(b, csrf, code);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ success: true, redirectUrl: "/" });
    expect((await me(b)).body).toMatchObject({ username: "admin", method: "mfa" });
  });

  it("resend: a new code is delivered and the old one stops working", async () => {
    const { b, code: first, csrf } = await startAdminMfa(s, file);
    const { result: resent, code: second } = await codeAfter(file, "admin", () =>
      b.postJson("/mfa/ott/generate-code", {}, { "x-csrf-token": csrf }),
    );
    expect(resent.status).toBe(200);
    expect(await resent.json()).toMatchObject({
      mfaRequired: true,
      status: "MFA_CONTINUE",
      state: "OTT_CHALLENGE",
    });
    expect(second).toMatch(/^[0-9]{6}$/);
    // The first code is void now (the chance that both codes are equal is 1e-6; such a run skips this check).
    if (second !== first) {
      const old = await verify(b, csrf, first);
      expect(old.status).toBe(401);
      expect(await old.json()).toMatchObject({ code: "MFA_FACTOR_VERIFICATION_FAILED", attemptsMade: 1 });
    }
    // Another resend keeps the failure count (no way around maxRetryAttempts) and voids the second code.
    const { code: third } = await codeAfter(file, "admin", () =>
      b.postJson("/mfa/ott/generate-code", {}, { "x-csrf-token": csrf }),
    );
    const before = (await mfaStatus(b)).body.attemptsMade as number;
    if (third !== second) {
      const stale = await verify(b, csrf, second);
      expect(await stale.json()).toMatchObject({
        code: "MFA_FACTOR_VERIFICATION_FAILED",
        attemptsMade: before + 1,
      });
    }
    const ok = await verify(b, csrf, third);
    expect(ok.status).toBe(200);
    expect((await me(b)).body).toMatchObject({ username: "admin", factors: ["pwd", "otp"] });
  });

  it("resend is limited per MFA session (429 TOO_MANY_ATTEMPTS)", async () => {
    const { b, csrf } = await startAdminMfa(s, file);
    for (let i = 0; i < 4; i++) {
      const res = await codeAfter(file, "admin", () =>
        b.postJson("/mfa/ott/generate-code", {}, { "x-csrf-token": csrf }),
      );
      expect(res.result.status).toBe(200);
    }
    const over = await b.postJson("/mfa/ott/generate-code", {}, { "x-csrf-token": csrf });
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ success: false, code: "TOO_MANY_ATTEMPTS" });
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("GET /api/mfa/config is the flow's URL set; /api/mfa/status the caller's progress", async () => {
    const config = await (await fetch(`${s.url}/api/mfa/config`, { headers: { ...JSON_ACCEPT } })).json();
    expect(config).toMatchObject({
      primary: { formLoginPage: "/login", formLoginProcessing: "/login", loginSuccess: "/" },
      mfa: { selectFactor: "/mfa/select-factor", failure: "/mfa/failure", cancel: "/mfa/cancel" },
      ott: {
        requestCodeUi: "/mfa/ott/request-code-ui",
        challengeUi: "/mfa/challenge/ott",
        loginProcessing: "/login/mfa-ott",
        codeGeneration: "/mfa/ott/generate-code",
      },
      api: { status: "/api/mfa/status", config: "/api/mfa/config", cancel: "/mfa/cancel" },
      flow: { typeName: "mfa", factors: ["OTT"], requiredFactors: 1 },
    });
    expect(config).not.toHaveProperty("urlPrefix");

    const { b, body } = await startAdminMfa(s, file);
    const status = await mfaStatus(b);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      mfaSessionId: body.mfaSessionId,
      state: "OTT_CHALLENGE",
      currentFactor: "OTT",
      satisfied: [],
      missing: 1,
      allowed: ["OTT"],
      requiredFactors: 1,
      attemptsMade: 0,
      maxAttempts: 5,
    });
    // Without an MFA session there is nothing to report.
    const none = await mfaStatus(new Browser(s.url));
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: "MFA_SESSION_REQUIRED" });
  });

  it("cancel ends the flow; a later verify is refused with a stable code", async () => {
    const { b, body, code, csrf } = await startAdminMfa(s, file);
    const cancelled = await b.postJson("/mfa/cancel", {}, { "x-csrf-token": csrf });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ success: true, state: "MFA_CANCELLED" });
    // The binding cookie is gone: without it the caller has no MFA session.
    expect(b.cookies.has(MFA_COOKIE)).toBe(false);
    const after = await verify(b, csrf, code);
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ success: false, code: "MFA_SESSION_REQUIRED" });
    // Naming the ended flow explicitly: it no longer exists.
    const named = await verify(b, csrf, code, { mfaSessionId: body.mfaSessionId });
    expect(named.status).toBe(401);
    expect(await named.json()).toMatchObject({ success: false, code: "MFA_SESSION_EXPIRED" });
    expect((await me(b)).status).toBe(401);
  });

  it("browser cancel lands on the failure page", async () => {
    const b = new Browser(s.url);
    await codeAfter(file, "admin", () => primaryForm(b, "admin", "admin"));
    const page = await (await b.fetch("/mfa/challenge/ott")).text();
    const csrf = /<meta name="_csrf" content="([^"]+)">/.exec(page)![1]!;
    const res = await b.postForm("/mfa/cancel", { _csrf: csrf });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/mfa/failure?state=MFA_CANCELLED");
    expect((await b.fetch("/mfa/failure?state=MFA_CANCELLED")).status).toBe(200);
  });
});
