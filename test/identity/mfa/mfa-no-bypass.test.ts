import { API_MFA_PREFIX } from "@keyward/cli";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertion,
  jsonHeaders,
  localOrigin,
  registerPasskey,
  SoftwareAuthenticator,
} from "../passkey-http-support.js";
import {
  Browser,
  codeAfter,
  csrfOfSession,
  type IdentityTestServer,
  me,
  MFA_COOKIE,
  type MfaRequired,
  newOutboxFile,
  outbox,
  startAdminMfa,
  startMfaServer,
  verify,
  waitForLine,
  wrongCode,
} from "./mfa-test-support.js";

/** Asserts the MFA-required answer of a single-auth chain: no token, no session. */
async function expectHandedOver(res: Response, b: Browser): Promise<MfaRequired> {
  const body = (await res.json()) as MfaRequired & Record<string, unknown>;
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body).toMatchObject({
    mfaRequired: true,
    selectFactorUrl: "/mfa/select-factor",
    mfaSessionId: expect.any(String),
    status: "MFA_REQUIRED",
    nextStepUrl: "/mfa/challenge/ott",
  });
  expect(body).not.toHaveProperty("accessToken");
  expect(body).not.toHaveProperty("refreshToken");
  expect(body).not.toHaveProperty("success");
  expect(b.cookies.get(MFA_COOKIE)?.startsWith(`${body.mfaSessionId}.`)).toBe(true);
  expect((await me(b)).status).toBe(401);
  return body;
}

/** Completes a handed-over flow with its code on the MFA chain (a session is created for CSRF). */
async function complete(b: Browser, code: string): Promise<void> {
  const res = await verify(b, await csrfOfSession(b), code);
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ success: true, redirectUrl: "/" });
}

/** Admin completes MFA once (form + code) and registers a passkey; returns the device. */
async function adminWithPasskey(s: IdentityTestServer, file: string): Promise<SoftwareAuthenticator> {
  const { b, code, csrf } = await startAdminMfa(s, file);
  expect((await verify(b, csrf, code)).status).toBe(200);
  const device = new SoftwareAuthenticator(localOrigin(s));
  const registered = await registerPasskey(b, device, jsonHeaders(await csrfOfSession(b)), { label: "Key" });
  expect(registered.status).toBe(201);
  return device;
}

/** A passkey sign-in as JSON on the demo's passkey chain. */
async function passkeySignIn(s: IdentityTestServer, device: SoftwareAuthenticator, b = new Browser(s.url)) {
  const headers = jsonHeaders(await csrfOfSession(b));
  const signed = await assertion(b, device, headers, { username: "admin" });
  return { b, res: await b.postJson("/login/webauthn", signed, headers) };
}

describe("no bypass: every single-auth chain hands admin into the MFA flow", () => {
  const file = newOutboxFile();
  let s: IdentityTestServer;
  let device: SoftwareAuthenticator;
  beforeAll(async () => {
    // Passkeys count as MFA here; the default (false) is tested below and by the demo.
    s = await startMfaServer({ outbox: file, properties: { "platform.auth.mfa.passkeySatisfiesMfa": true } });
  });
  afterAll(() => s.close());

  it("REST (.oauth2()): /api/login answers mfaRequired without tokens; the API's token flow then issues them", async () => {
    // A token chain hands over to the first token flow (the demo's mfa_api), not to the session flow.
    const b = new Browser(s.url);
    const { result, code } = await codeAfter(file, "admin", () =>
      b.postJson("/api/login", { username: "admin", password: "admin" }),
    );
    const body = (await result.json()) as MfaRequired & Record<string, unknown>;
    expect(result.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      mfaRequired: true,
      status: "MFA_REQUIRED",
      nextStepUrl: `${API_MFA_PREFIX}/mfa/challenge/ott`,
      endpoints: { verifyOtt: `${API_MFA_PREFIX}/login/mfa-ott` },
      mfaBinding: `${body.mfaSessionId}.${b.cookies.get(MFA_COOKIE)?.split(".")[1]}`,
    });
    expect(body).not.toHaveProperty("accessToken");
    expect(body).not.toHaveProperty("success");
    expect((await me(b)).status).toBe(401);
    const done = await b.postJson(`${API_MFA_PREFIX}/login/mfa-ott`, { token: code });
    const tokens = (await done.json()) as Record<string, unknown>;
    expect(done.status, JSON.stringify(tokens)).toBe(200);
    expect(tokens).toMatchObject({ success: true, tokenType: "Bearer", accessToken: expect.any(String) });
    const who = await fetch(`${s.url}/api/me`, {
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(await who.json()).toMatchObject({ username: "admin", method: "mfa", factors: ["pwd", "otp"] });
  });

  it("REST: user still gets tokens at once", async () => {
    const res = await new Browser(s.url).postJson("/api/login", { username: "user", password: "password" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, accessToken: expect.any(String) });
  });

  it("magic link: /login/ott answers mfaRequired and creates no session; the flow then signs in", async () => {
    const b = new Browser(s.url);
    const before = outbox(file).length;
    const csrf = await b.csrfFrom("/login/ott");
    expect((await b.postForm("/ott/generate", { username: "admin", _csrf: csrf })).status).toBe(302);
    const link = await waitForLine(file, before + 1);
    expect(link).toMatchObject({ channel: "email", username: "admin" });
    const { result, code } = await codeAfter(file, "admin", () =>
      b.postJson("/login/ott", { token: link.token }, { "x-csrf-token": csrf }),
    );
    await expectHandedOver(result, b);
    await complete(b, code);
    expect((await me(b)).body).toMatchObject({ username: "admin", method: "mfa", factors: ["otp", "otp"] });
  });

  it("magic link in a browser: redirected to the code page, not signed in", async () => {
    const b = new Browser(s.url);
    const before = outbox(file).length;
    const csrf = await b.csrfFrom("/login/ott");
    await b.postForm("/ott/generate", { username: "admin", _csrf: csrf });
    const link = await waitForLine(file, before + 1);
    const { result: res } = await codeAfter(file, "admin", () =>
      b.postForm("/login/ott", { token: link.token, _csrf: csrf }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/mfa/challenge/ott");
    expect((await me(b)).status).toBe(401);
    expect((await b.fetch("/mfa/challenge/ott")).status).toBe(200);
  });

  it("passkey: a user-verified passkey sign-in satisfies MFA when passkeySatisfiesMfa is true", async () => {
    device = await adminWithPasskey(s, file);
    const before = outbox(file).length;
    const { b, res } = await passkeySignIn(s, device);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, redirectUrl: "/" });
    expect(b.cookies.has(MFA_COOKIE)).toBe(false);
    expect((await me(b)).body).toMatchObject({ username: "admin", method: "passkey" });
    await new Promise((r) => setTimeout(r, 100));
    expect(outbox(file).length).toBe(before);
  });

  it("the MFA lockout also stops the passkey sign-in", async () => {
    const { b, code, csrf } = await startAdminMfa(s, file);
    for (let i = 0; i < 5; i++) await verify(b, csrf, wrongCode(code));
    const { b: other, res } = await passkeySignIn(s, device);
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(body)).toBe(423);
    expect(body).toMatchObject({ code: "ACCOUNT_LOCKED" });
    expect((await me(other)).status).toBe(401);
  });
});

describe("no bypass with passkeySatisfiesMfa=false (the default)", () => {
  const file = newOutboxFile();
  let s: IdentityTestServer;
  beforeAll(async () => {
    s = await startMfaServer({
      outbox: file,
      properties: {},
    });
  });
  afterAll(() => s.close());

  it("a passkey sign-in is only the primary step: admin must still enter a code", async () => {
    const device = await adminWithPasskey(s, file);
    const b = new Browser(s.url);
    const { result, code } = await codeAfter(
      file,
      "admin",
      async () => (await passkeySignIn(s, device, b)).res,
    );
    await expectHandedOver(result, b);
    await complete(b, code);
    expect((await me(b)).body).toMatchObject({ username: "admin", method: "mfa", factors: ["hwk", "otp"] });
  });
});
