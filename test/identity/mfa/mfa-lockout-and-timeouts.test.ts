import { Clock } from "@keyward/core/ports";
import { ManualClock } from "@keyward/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  codeAfter,
  type IdentityTestServer,
  JSON_ACCEPT,
  me,
  mfaStatus,
  newOutboxFile,
  outbox,
  primaryForm,
  startAdminMfa,
  startMfaServer,
  verify,
  waitForLine,
  wrongCode,
} from "./mfa-test-support.js";

const MINUTE = 60_000;

/** A server whose Clock is the given ManualClock. */
function startWithClock(clock: ManualClock, file: string): Promise<IdentityTestServer> {
  return startMfaServer({ outbox: file, register: (c) => c.registerInstance(Clock, clock) });
}

/** POST /api/login (REST, `.oauth2()`). */
function restLogin(s: IdentityTestServer, username: string, password: string): Promise<Response> {
  return fetch(`${s.url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json", ...JSON_ACCEPT },
    body: JSON.stringify({ username, password }),
  });
}

/** A magic link for `username` (the demo's OTT chain), submitted as JSON. */
async function magicLinkLogin(s: IdentityTestServer, file: string, username: string): Promise<Response> {
  const b = new Browser(s.url);
  const before = outbox(file).length;
  const csrf = await b.csrfFrom("/login/ott");
  const sent = await b.postForm("/ott/generate", { username, _csrf: csrf });
  expect(sent.status).toBe(302);
  const line = await waitForLine(file, before + 1);
  expect(line).toMatchObject({ channel: "email", username });
  return b.postJson("/login/ott", { token: line.token }, { "x-csrf-token": await b.csrfFrom("/login/ott") });
}

describe("MFA lockout after maxRetryAttempts wrong codes", () => {
  const clock = new ManualClock();
  const file = newOutboxFile();
  let s: IdentityTestServer;
  beforeAll(async () => {
    s = await startWithClock(clock, file);
  });
  afterAll(() => s.close());

  it("counts wrong codes; the 5th answers 423 ACCOUNT_LOCKED and ends the flow", async () => {
    const { b, code, csrf } = await startAdminMfa(s, file);
    const bad = wrongCode(code);
    for (let attempt = 1; attempt <= 4; attempt++) {
      const res = await verify(b, csrf, bad);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({
        code: "MFA_FACTOR_VERIFICATION_FAILED",
        attemptsMade: attempt,
        maxAttempts: 5,
      });
    }
    const fifth = await verify(b, csrf, bad);
    expect(fifth.status).toBe(423);
    expect(await fifth.json()).toMatchObject({
      success: false,
      failureType: "ACCOUNT_LOCKED",
      code: "ACCOUNT_LOCKED",
      attemptsMade: 5,
      maxAttempts: 5,
    });
    expect(Number(fifth.headers.get("retry-after"))).toBe(15 * 60);
    // The right code does not help any more: the flow has ended.
    const late = await verify(b, csrf, code);
    expect(late.status).toBe(401);
    expect(await late.json()).toMatchObject({ code: "MFA_SESSION_EXPIRED" });
    expect((await me(b)).status).toBe(401);
  });

  it("the lock holds at admin's next primary login on every chain, with the right password", async () => {
    clock.advance(MINUTE);
    const form = await primaryForm(new Browser(s.url), "admin", "admin", true);
    expect(form.status).toBe(423);
    expect(await form.json()).toMatchObject({
      success: false,
      failureType: "ACCOUNT_LOCKED",
      code: "ACCOUNT_LOCKED",
    });
    expect(Number(form.headers.get("retry-after"))).toBe(14 * 60);

    const browser = await primaryForm(new Browser(s.url), "admin", "admin");
    expect(browser.status).toBe(302);
    expect(browser.headers.get("location")).toBe("/login?error");

    const rest = await restLogin(s, "admin", "admin");
    const restBody = (await rest.json()) as Record<string, unknown>;
    expect(rest.status, JSON.stringify(restBody)).toBe(423);
    expect(restBody).toMatchObject({ code: "ACCOUNT_LOCKED" });
    expect(restBody).not.toHaveProperty("accessToken");

    const ott = await magicLinkLogin(s, file, "admin");
    const ottBody = (await ott.json()) as Record<string, unknown>;
    expect(ott.status, JSON.stringify(ottBody)).toBe(423);
    expect(ottBody).toMatchObject({ code: "ACCOUNT_LOCKED" });
  });

  it("single-auth chains answer the lock like any failed sign-in (failure body, Retry-After, browser redirect)", async () => {
    // authentication.md: a JSON/.oauth2() failure is `{ success: false, error, failureType, code }`, a
    // browser on a session chain is redirected to `<loginPage>?error`; the MFA primary does exactly that.
    const rest = await restLogin(s, "admin", "admin");
    expect(rest.status).toBe(423);
    expect(await rest.json()).toMatchObject({
      success: false,
      failureType: "ACCOUNT_LOCKED",
      code: "ACCOUNT_LOCKED",
    });
    expect(rest.headers.get("retry-after")).not.toBeNull();

    const b = new Browser(s.url);
    const before = outbox(file).length;
    const csrf = await b.csrfFrom("/login/ott");
    await b.postForm("/ott/generate", { username: "admin", _csrf: csrf });
    const { token } = await waitForLine(file, before + 1);
    const res = await b.postForm("/login/ott", { token, _csrf: csrf });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login/ott?error");
  });

  it("other users are unaffected", async () => {
    const b = new Browser(s.url);
    const res = await primaryForm(b, "user", "password");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect((await me(b)).body).toMatchObject({ username: "user" });
    const rest = await restLogin(s, "user", "password");
    expect(rest.status).toBe(200);
    expect(await rest.json()).toMatchObject({ success: true, accessToken: expect.any(String) });
  });

  it("after accountLockoutDurationMs admin can start MFA again and complete it", async () => {
    clock.advance(15 * MINUTE);
    const { b, code, csrf } = await startAdminMfa(s, file);
    const ok = await verify(b, csrf, code);
    expect(ok.status).toBe(200);
    expect((await me(b)).body).toMatchObject({ username: "admin", method: "mfa" });
  });
});

describe("MFA session and challenge timeouts", () => {
  const clock = new ManualClock();
  const file = newOutboxFile();
  let s: IdentityTestServer;
  beforeAll(async () => {
    s = await startWithClock(clock, file);
  });
  afterAll(() => s.close());

  it("a code still works just before the challenge times out", async () => {
    const { b, code, csrf } = await startAdminMfa(s, file);
    clock.advance(5 * MINUTE - 1_000);
    const ok = await verify(b, csrf, code);
    expect(ok.status).toBe(200);
  });

  it("session timeout: sessionTimeoutMs after the primary step the flow answers MFA_TIMEOUT", async () => {
    const { b, code, csrf } = await startAdminMfa(s, file);
    clock.advance(10 * MINUTE);
    const res = await verify(b, csrf, code);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ success: false, code: "MFA_TIMEOUT" });
    const again = await verify(b, csrf, code);
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ code: "MFA_SESSION_EXPIRED" });
    expect((await me(b)).status).toBe(401);
  });

  it("session timeout also wins when the flow keeps resending codes", async () => {
    const { b, csrf } = await startAdminMfa(s, file);
    clock.advance(4 * MINUTE);
    await codeAfter(file, "admin", () => b.postJson("/mfa/ott/generate-code", {}, { "x-csrf-token": csrf }));
    clock.advance(4 * MINUTE);
    const { code } = await codeAfter(file, "admin", () =>
      b.postJson("/mfa/ott/generate-code", {}, { "x-csrf-token": csrf }),
    );
    clock.advance(2 * MINUTE);
    const res = await verify(b, csrf, code);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "MFA_TIMEOUT" });
  });

  it("challenge timeout: the flow returns to factor selection and the old code stops working", async () => {
    const { b, code, csrf } = await startAdminMfa(s, file);
    clock.advance(5 * MINUTE);
    const status = await mfaStatus(b);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ state: "FACTOR_SELECTION", currentFactor: null, allowed: ["OTT"] });
    // The code page sends the browser back to the selection page.
    const page = await b.fetch("/mfa/challenge/ott");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/mfa/select-factor");

    const old = await verify(b, csrf, code);
    expect(old.status).toBeGreaterThanOrEqual(400);
    expect(old.status).toBeLessThan(500);
    expect(await old.json()).toMatchObject({ success: false, code: "ILLEGAL_STATE_TRANSITION" });

    // Choosing OTT again sends a new code, which completes the flow.
    const { result: selected, code: fresh } = await codeAfter(file, "admin", () =>
      b.postJson("/mfa/select-factor", { factorType: "OTT" }, { "x-csrf-token": csrf }),
    );
    expect(selected.status).toBe(200);
    expect(await selected.json()).toMatchObject({ mfaRequired: true, state: "OTT_CHALLENGE" });
    const ok = await verify(b, csrf, fresh);
    expect(ok.status).toBe(200);
    expect((await me(b)).body).toMatchObject({ username: "admin", factors: ["pwd", "otp"] });
  });

  it("a timed-out challenge and a new code do not reset the failure count (last: it locks admin)", async () => {
    const { b, code, csrf } = await startAdminMfa(s, file);
    for (let i = 0; i < 4; i++) await verify(b, csrf, wrongCode(code));
    clock.advance(5 * MINUTE);
    const { code: fresh } = await codeAfter(file, "admin", () =>
      b.postJson("/mfa/select-factor", { factorType: "OTT" }, { "x-csrf-token": csrf }),
    );
    expect((await mfaStatus(b)).body).toMatchObject({ state: "OTT_CHALLENGE", attemptsMade: 4 });
    const fifth = await verify(b, csrf, wrongCode(fresh));
    expect(fifth.status).toBe(423);
    expect(await fifth.json()).toMatchObject({ code: "ACCOUNT_LOCKED" });
  });
});
