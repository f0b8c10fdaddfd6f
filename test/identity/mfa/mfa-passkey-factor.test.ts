import { PasskeyCredentialRepository, UserRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  jsonHeaders,
  localOrigin,
  type RequestOptions,
  registerPasskey,
  SoftwareAuthenticator,
} from "../passkey-http-support.js";
import {
  Browser,
  codeAfter,
  csrfOfSession,
  type FailureBody,
  type IdentityTestServer,
  me,
  MFA_COOKIE,
  mfaStatus,
  newOutboxFile,
  primaryForm,
  startAdminMfa,
  startMfaServer,
  verify,
  mfaWithPasskeySecurity,
} from "./mfa-test-support.js";

/** The assertion options of the MFA passkey step. */
const OPTIONS_URL = "/mfa/webauthn/authenticate/options";
/** MFA passkey processing. */
const PASSKEY_LOGIN = "/login/mfa-webauthn";
/** The WebAuthn challenge cookie. */
const CHALLENGE_COOKIE = "PLATFORM_WEBAUTHN";

type Assertion = ReturnType<SoftwareAuthenticator["getAssertion"]>;
type AssertionOptions = RequestOptions & { mfaSessionId?: string };

/** POSTs JSON with the session's CSRF token. */
function post(b: Browser, path: string, body: unknown, csrf: string): Promise<Response> {
  return b.postJson(path, body, { "x-csrf-token": csrf });
}

/** The MFA-bound assertion options (asserts 200). */
async function assertionOptions(b: Browser, csrf: string): Promise<AssertionOptions> {
  const res = await post(b, OPTIONS_URL, {}, csrf);
  const body = (await res.json()) as AssertionOptions;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body;
}

/** Fresh MFA-bound options signed by `device` (with `origin` as the client data's origin). */
async function signed(b: Browser, csrf: string, device: SoftwareAuthenticator, origin: string) {
  return device.getAssertion(await assertionOptions(b, csrf), { origin });
}

/** A JSON body, typed loosely. */
async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

/** Admin completes MFA once with the emailed code (factor 1 starts automatically), then registers a passkey. */
async function enrollAdmin(s: IdentityTestServer, file: string): Promise<SoftwareAuthenticator> {
  const { b, code, csrf } = await startAdminMfa(s, file);
  const ok = await verify(b, csrf, code);
  expect(ok.status).toBe(200);
  expect(await ok.json()).toMatchObject({ success: true, redirectUrl: "/" });
  const device = new SoftwareAuthenticator(localOrigin(s));
  const registered = await registerPasskey(b, device, jsonHeaders(await csrfOfSession(b)), {
    label: "Admin key",
  });
  expect(registered.status).toBe(201);
  return device;
}

/** `user` (no MFA role) signs in with the password and registers a passkey of their own. */
async function enrollUser(s: IdentityTestServer): Promise<SoftwareAuthenticator> {
  const b = new Browser(s.url);
  expect((await primaryForm(b, "user", "password")).status).toBe(302);
  const device = new SoftwareAuthenticator(localOrigin(s));
  const registered = await registerPasskey(b, device, jsonHeaders(await csrfOfSession(b)), {
    label: "User key",
  });
  expect(registered.status).toBe(201);
  return device;
}

describe("MFA passkey factor: a user without a passkey", () => {
  const file = newOutboxFile();
  let s: IdentityTestServer;
  beforeAll(async () => {
    s = await startMfaServer({ outbox: file, security: mfaWithPasskeySecurity(1) });
  });
  afterAll(() => s.close());

  it("is not offered PASSKEY: status lacks it, selecting it is 400, the passkey endpoints are 409", async () => {
    const { b, body, csrf } = await startAdminMfa(s, file);
    expect(body).toMatchObject({ availableFactors: ["OTT"], currentFactor: "OTT" });
    expect((await mfaStatus(b)).body).toMatchObject({ state: "OTT_CHALLENGE", allowed: ["OTT"] });
    expect(await (await b.fetch("/mfa/challenge/ott")).text()).not.toContain('id="tryAnotherMethodLink"');

    const options = await post(b, OPTIONS_URL, {}, csrf);
    expect(options.status).toBe(409);
    expect(await options.json()).toMatchObject({ code: "ILLEGAL_STATE_TRANSITION", state: "OTT_CHALLENGE" });
    expect(b.cookies.has(CHALLENGE_COOKIE)).toBe(false);

    const select = await post(b, "/mfa/select-factor", { factorType: "PASSKEY" }, csrf);
    expect(select.status).toBe(400);
    expect(await select.json()).toMatchObject({ success: false, code: "VALIDATION_FAILED" });
    expect((await me(b)).status).toBe(401);
  });

  it("a refused selection leaves the running code challenge alone: the emailed code still signs in", async () => {
    const { b, code, csrf } = await startAdminMfa(s, file);
    const select = await post(b, "/mfa/select-factor", { factorType: "PASSKEY" }, csrf);
    expect(select.status).toBe(400);
    expect((await mfaStatus(b)).body).toMatchObject({
      state: "OTT_CHALLENGE",
      currentFactor: "OTT",
      attemptsMade: 0,
    });
    const ok = await verify(b, csrf, code);
    expect(ok.status).toBe(200);
    expect((await me(b)).body).toMatchObject({ username: "admin", method: "mfa", factors: ["pwd", "otp"] });
  });
});

describe("MFA passkey factor: requiredFactors(1)", () => {
  const file = newOutboxFile();
  let s: IdentityTestServer;
  let origin: string;
  let adminDevice: SoftwareAuthenticator;
  let userDevice: SoftwareAuthenticator;
  /** An assertion that already signed admin in (for the replay test). */
  let spent: Assertion | undefined;

  beforeAll(async () => {
    s = await startMfaServer({ outbox: file, security: mfaWithPasskeySecurity(1) });
    origin = localOrigin(s);
    adminDevice = await enrollAdmin(s, file);
    userDevice = await enrollUser(s);
  });
  afterAll(() => s.close());

  it("the code starts automatically; Try another method switches to the passkey, which signs admin in", async () => {
    const { b, body, csrf } = await startAdminMfa(s, file);
    expect(body).toMatchObject({
      status: "MFA_REQUIRED",
      state: "OTT_CHALLENGE",
      currentFactor: "OTT",
      availableFactors: ["OTT", "PASSKEY"],
      progress: { current: 0, total: 1 },
    });
    // The OTT page offers "Try another method".
    const ottPage = await (await b.fetch("/mfa/challenge/ott")).text();
    expect(ottPage).toContain('id="tryAnotherMethodLink"');

    const selected = await post(b, "/mfa/select-factor", { factorType: "PASSKEY" }, csrf);
    expect(selected.status).toBe(200);
    expect(await selected.json()).toMatchObject({
      mfaRequired: true,
      mfaSessionId: body.mfaSessionId,
      status: "MFA_CONTINUE",
      state: "PASSKEY_CHALLENGE",
      nextStepUrl: "/mfa/challenge/passkey",
      currentFactor: "PASSKEY",
      availableFactors: ["OTT", "PASSKEY"],
    });
    // Nothing is completed yet, so nothing is left out.
    expect((await mfaStatus(b)).body).toMatchObject({
      state: "PASSKEY_CHALLENGE",
      currentFactor: "PASSKEY",
      satisfied: [],
      missing: 1,
      allowed: ["OTT", "PASSKEY"],
      attemptsMade: 0,
    });
    const page = await b.fetch("/mfa/challenge/passkey");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`data-mfa-session-id="${body.mfaSessionId}"`);
    expect(html).toContain(`data-assertion-options-url="${OPTIONS_URL}"`);
    expect(html).toContain('id="tryAnotherMethodLink"');
    // The MFA machine holds the state: no signed-in session exists yet.
    expect((await me(b)).status).toBe(401);

    const options = await assertionOptions(b, csrf);
    expect(options).toMatchObject({ rpId: "localhost", userVerification: "required" });
    expect(options.mfaSessionId).toBe(body.mfaSessionId);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([
      adminDevice.credentials[0]!.id.toString("base64url"),
    ]);
    expect(b.cookies.has(CHALLENGE_COOKIE)).toBe(true);
    expect((await me(b)).status).toBe(401);

    const assertion = adminDevice.getAssertion(options, { origin });
    const res = await post(b, PASSKEY_LOGIN, assertion, csrf);
    const done = await json(res);
    expect(res.status, JSON.stringify(done)).toBe(200);
    expect(done).toEqual({ success: true, redirectUrl: "/" });
    expect(b.cookies.has(MFA_COOKIE)).toBe(false);
    expect(b.cookies.has(CHALLENGE_COOKIE)).toBe(false);
    expect((await me(b)).body).toMatchObject({ username: "admin", method: "mfa", factors: ["pwd", "hwk"] });
    spent = assertion;
  });

  it("Try another method without JavaScript: the selection page opens from the code page and offers the passkey", async () => {
    const { b } = await startAdminMfa(s, file);
    const page = await b.fetch("/mfa/select-factor");
    expect(page.status, `redirected to ${page.headers.get("location")}`).toBe(200);
    const html = await page.text();
    expect(html).toContain('id="selectPasskeyButton"');
  });

  it("the selection form (no JavaScript) sends the browser to the passkey challenge page", async () => {
    const { b, csrf } = await startAdminMfa(s, file);
    const res = await b.postForm("/mfa/select-factor", { factorType: "PASSKEY", _csrf: csrf });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/mfa/challenge/passkey");
    expect((await b.fetch("/mfa/challenge/passkey")).status).toBe(200);
    // The code page now sends the browser to the passkey page.
    expect((await b.fetch("/mfa/challenge/ott")).headers.get("location")).toBe("/mfa/challenge/passkey");
  });

  it("assertion options and verification outside PASSKEY_CHALLENGE answer 409 ILLEGAL_STATE_TRANSITION", async () => {
    const { b, code, csrf } = await startAdminMfa(s, file);
    const options = await post(b, OPTIONS_URL, {}, csrf);
    expect(options.status).toBe(409);
    expect(await options.json()).toMatchObject({
      success: false,
      code: "ILLEGAL_STATE_TRANSITION",
      state: "OTT_CHALLENGE",
    });
    expect(b.cookies.has(CHALLENGE_COOKIE)).toBe(false);
    const early = await post(b, PASSKEY_LOGIN, spent ?? {}, csrf);
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ code: "ILLEGAL_STATE_TRANSITION" });
    // Neither counted as a failed attempt; the code still works.
    expect((await mfaStatus(b)).body).toMatchObject({ state: "OTT_CHALLENGE", attemptsMade: 0 });
    expect((await verify(b, csrf, code)).status).toBe(200);
  });

  it("another user's passkey and a replayed assertion are failed attempts; admin's own then completes", async () => {
    expect(spent).toBeDefined();
    const { b, body, csrf } = await startAdminMfa(s, file);
    expect((await post(b, "/mfa/select-factor", { factorType: "PASSKEY" }, csrf)).status).toBe(200);

    // user's passkey verifies as user's, so it does not count for admin.
    const foreign = await post(b, PASSKEY_LOGIN, await signed(b, csrf, userDevice, origin), csrf);
    expect(foreign.status).toBe(401);
    expect((await foreign.json()) as FailureBody).toMatchObject({
      success: false,
      code: "MFA_FACTOR_VERIFICATION_FAILED",
      attemptsMade: 1,
      maxAttempts: 5,
    });
    expect((await me(b)).status).toBe(401);

    // An assertion that already signed in once, replayed against fresh options.
    await assertionOptions(b, csrf);
    const replayed = await post(b, PASSKEY_LOGIN, spent, csrf);
    expect(replayed.status).toBe(401);
    expect((await replayed.json()) as FailureBody).toMatchObject({
      code: "MFA_FACTOR_VERIFICATION_FAILED",
      attemptsMade: 2,
    });
    // The same replay without any options (no challenge cookie) counts too.
    const bare = await post(b, PASSKEY_LOGIN, spent, csrf);
    expect(bare.status).toBe(401);
    expect(await bare.json()).toMatchObject({ code: "MFA_FACTOR_VERIFICATION_FAILED", attemptsMade: 3 });
    expect((await mfaStatus(b)).body).toMatchObject({ state: "PASSKEY_CHALLENGE", attemptsMade: 3 });
    expect((await me(b)).status).toBe(401);

    // `{ credential, mfaSessionId }` is accepted as well.
    const credential = await signed(b, csrf, adminDevice, origin);
    const ok = await post(b, PASSKEY_LOGIN, { credential, mfaSessionId: body.mfaSessionId }, csrf);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true, redirectUrl: "/" });
    expect((await me(b)).body).toMatchObject({ username: "admin", method: "mfa", factors: ["pwd", "hwk"] });
  });

  it("without the MFA cookie the passkey endpoints answer 401 MFA_SESSION_REQUIRED", async () => {
    const b = new Browser(s.url);
    const csrf = await csrfOfSession(b);
    const options = await post(b, OPTIONS_URL, {}, csrf);
    expect(options.status).toBe(401);
    expect(await options.json()).toMatchObject({ success: false, code: "MFA_SESSION_REQUIRED" });
    const login = await post(b, PASSKEY_LOGIN, spent ?? {}, csrf);
    expect(login.status).toBe(401);
    expect(await login.json()).toMatchObject({ success: false, code: "MFA_SESSION_REQUIRED" });
    expect((await me(b)).status).toBe(401);
  });

  it("the MFA cookie is needed even when the flow is named: another client's session id is refused", async () => {
    const { b, body, csrf } = await startAdminMfa(s, file);
    expect((await post(b, "/mfa/select-factor", { factorType: "PASSKEY" }, csrf)).status).toBe(200);
    const thief = new Browser(s.url);
    const thiefCsrf = await csrfOfSession(thief);
    const res = await thief.postJson(
      OPTIONS_URL,
      {},
      { "x-csrf-token": thiefCsrf, "x-mfa-session-id": body.mfaSessionId },
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: "MFA_SESSION_BINDING_INVALID" });
  });
});

describe("MFA passkey factor: requiredFactors(2)", () => {
  const file = newOutboxFile();
  /** Enrollment server: the same accounts and passkeys under requiredFactors(1). */
  let enroll: IdentityTestServer;
  let s: IdentityTestServer;
  let origin: string;
  let adminDevice: SoftwareAuthenticator;

  beforeAll(async () => {
    // Under requiredFactors(2) the policy BLOCKS admin until a second factor exists (documented:
    // fewer usable factors than required), so the passkey is enrolled on a requiredFactors(1)
    // server that shares the user and passkey stores with the one under test.
    enroll = await startMfaServer({ outbox: file, security: mfaWithPasskeySecurity(1) });
    adminDevice = await enrollAdmin(enroll, file);
    s = await startMfaServer({
      outbox: file,
      security: mfaWithPasskeySecurity(2),
      register: (c) => {
        c.register(UserRepository, { useValue: enroll.platform.resolve(UserRepository) });
        c.register(PasskeyCredentialRepository, {
          useValue: enroll.platform.resolve(PasskeyCredentialRepository),
        });
      },
    });
    origin = localOrigin(s);
  });
  afterAll(async () => {
    await s?.close();
    await enroll?.close();
  });

  it("OTT first (automatic), then the passkey starts by itself; both count: pwd, otp, hwk", async () => {
    const { b, body, code, csrf } = await startAdminMfa(s, file);
    expect(body).toMatchObject({
      status: "MFA_REQUIRED",
      state: "OTT_CHALLENGE",
      currentFactor: "OTT",
      progress: { current: 0, total: 2 },
    });

    const first = await verify(b, csrf, code);
    const next = await json(first);
    expect(first.status, JSON.stringify(next)).toBe(200);
    expect(next).toMatchObject({
      mfaRequired: true,
      status: "MFA_CONTINUE",
      state: "PASSKEY_CHALLENGE",
      nextStepUrl: "/mfa/challenge/passkey",
      currentFactor: "PASSKEY",
      availableFactors: ["PASSKEY"],
      progress: { current: 1, total: 2 },
    });
    expect(next).not.toHaveProperty("success");
    expect((await mfaStatus(b)).body).toMatchObject({
      state: "PASSKEY_CHALLENGE",
      satisfied: ["OTT"],
      missing: 1,
      allowed: ["PASSKEY"],
    });
    // Only one factor is left: the selection page is not offered and sends the browser on.
    const page = await (await b.fetch("/mfa/challenge/passkey")).text();
    expect(page).not.toContain('id="tryAnotherMethodLink"');
    const selectPage = await b.fetch("/mfa/select-factor");
    expect(selectPage.status).toBe(302);
    expect(selectPage.headers.get("location")).toBe("/mfa/challenge/passkey");
    expect((await me(b)).status).toBe(401);

    const res = await post(b, PASSKEY_LOGIN, await signed(b, csrf, adminDevice, origin), csrf);
    const done = await json(res);
    expect(res.status, JSON.stringify(done)).toBe(200);
    expect(done).toEqual({ success: true, redirectUrl: "/" });
    expect(b.cookies.has(MFA_COOKIE)).toBe(false);
    expect((await me(b)).body).toMatchObject({
      username: "admin",
      method: "mfa",
      factors: ["pwd", "otp", "hwk"],
    });
  });

  it("one type never counts twice: selecting the completed OTT is 400 and the passkey challenge stays open", async () => {
    const { b, code, csrf } = await startAdminMfa(s, file);
    expect((await verify(b, csrf, code)).status).toBe(200);
    const again = await post(b, "/mfa/select-factor", { factorType: "OTT" }, csrf);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ success: false, code: "VALIDATION_FAILED" });
    expect((await mfaStatus(b)).body).toMatchObject({
      state: "PASSKEY_CHALLENGE",
      currentFactor: "PASSKEY",
      satisfied: ["OTT"],
      allowed: ["PASSKEY"],
    });
    const res = await post(b, PASSKEY_LOGIN, await signed(b, csrf, adminDevice, origin), csrf);
    expect(res.status).toBe(200);
    expect((await me(b)).body).toMatchObject({ method: "mfa", factors: ["pwd", "otp", "hwk"] });
  });

  it("a browser form flow: the right code redirects to the passkey challenge page", async () => {
    const b = new Browser(s.url);
    const { result, code } = await codeAfter(file, "admin", () => primaryForm(b, "admin", "admin"));
    expect(result.headers.get("location")).toBe("/mfa/challenge/ott");
    const csrf = await csrfOfSession(b);
    const res = await b.postForm("/login/mfa-ott", { token: code, _csrf: csrf });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/mfa/challenge/passkey");
    expect((await me(b)).status).toBe(401);
  });

  it("user without an MFA role is not challenged at all", async () => {
    const b = new Browser(s.url);
    const res = await primaryForm(b, "user", "password", true);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true });
    expect((await me(b)).body).toMatchObject({ username: "user", factors: ["pwd"] });
  });
});
