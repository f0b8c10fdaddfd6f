import { type ZeroTrustAction, ZeroTrustActionService } from "@keyward/core/authz";
import { SIGN_IN_COMPLETED_EVENT, type SignInCompletedPayload } from "@keyward/core/identity";
import { EventBus, UserRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  assertion,
  csrfOf,
  jsonHeaders,
  localOrigin,
  registerPasskey,
  SoftwareAuthenticator,
  signInWithPassword,
} from "../identity/passkey-http-support.js";
import {
  Browser,
  demoSecurity,
  type IdentityTestServer,
  newOutboxFile,
  outbox,
  primaryForm,
  startAdminMfa,
  startMfaServer,
  verify,
  waitForLine,
} from "../identity/mfa/mfa-test-support.js";

// identity.SignInCompletedEvent feeds the decision pipeline its "completed sign-ins": a sign-in that
// zero trust refuses after the credentials were verified must publish none (a blocked user retrying
// would feed the pipeline sign-ins that never happened), and a sign-in that completes publishes one.
// `user` signs in without MFA; `admin` (ROLE_ADMIN) needs an emailed code.

const file = newOutboxFile();
let s: IdentityTestServer;
let device: SoftwareAuthenticator;
const published: SignInCompletedPayload[] = [];

beforeAll(async () => {
  s = await startMfaServer({ outbox: file, security: demoSecurity });
  device = new SoftwareAuthenticator(localOrigin(s));
  const owner = new Browser(s.url);
  const csrf = await signInWithPassword(owner, "user", "password");
  expect((await registerPasskey(owner, device, jsonHeaders(csrf))).status).toBe(201);
  s.platform.resolve(EventBus).on<SignInCompletedPayload>(SIGN_IN_COMPLETED_EVENT, (e) => {
    published.push(e.payload);
  });
});
afterAll(() => s.close());
beforeEach(() => {
  published.length = 0;
});

async function subjectOf(username: string): Promise<string> {
  const account = await s.platform.resolve(UserRepository).findByUsername(username);
  if (!account) throw new Error(`no user ${username}`);
  return `user:${account.id}`;
}

async function put(username: string, action: ZeroTrustAction): Promise<void> {
  const subject = await subjectOf(username);
  await s.platform.resolve(ZeroTrustActionService).set(subject, action, { source: "admin", reason: "test" });
}

async function lift(username: string): Promise<void> {
  await s.platform.resolve(ZeroTrustActionService).clear(await subjectOf(username), { source: "admin" });
}

async function ottSignIn(username: string): Promise<Response> {
  const b = new Browser(s.url);
  const before = outbox(file).length;
  const sent = await b.postForm("/ott/generate", { username, _csrf: await b.csrfFrom("/login/ott") });
  expect(sent.status).toBe(302);
  const line = await waitForLine(file, before + 1);
  return b.postForm(
    "/login/ott",
    { token: line.token, _csrf: await b.csrfFrom("/login/ott") },
    { accept: "application/json" },
  );
}

async function passkeySignIn(): Promise<Response> {
  const b = new Browser(s.url);
  const headers = jsonHeaders(await csrfOf(b));
  const signed = await assertion(b, device, headers, { username: "user" });
  return b.postJson("/login/webauthn", signed, headers);
}

/** Each primary method as `user` signs in with it; answers JSON where the method can. */
const methods: readonly { name: string; method: string; signIn: () => Promise<Response> }[] = [
  {
    name: "a form post",
    method: "form",
    signIn: () => primaryForm(new Browser(s.url), "user", "password", true),
  },
  {
    name: "a REST body",
    method: "rest",
    signIn: () => new Browser(s.url).postJson("/api/login", { username: "user", password: "password" }),
  },
  { name: "a one-time token", method: "ott", signIn: () => ottSignIn("user") },
  { name: "a passkey", method: "passkey", signIn: passkeySignIn },
];

describe("identity.SignInCompletedEvent under a zero-trust BLOCK", () => {
  it.each(methods)(
    "$name: a BLOCKed user's correct sign-in publishes none; after the lift one",
    async (m) => {
      await put("user", "BLOCK");
      try {
        const refused = await m.signIn();
        expect(refused.status).toBe(403);
        expect(await refused.json()).toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
        expect(published).toEqual([]);
      } finally {
        await lift("user");
      }
      expect((await m.signIn()).status).toBe(200);
      expect(published).toMatchObject([{ username: "user", method: m.method, remoteAddress: "127.0.0.1" }]);
      expect(published).toHaveLength(1);
    },
  );

  it("an MFA sign-in publishes none when the BLOCK lands between the password and the code, one when it completes", async () => {
    const held = await startAdminMfa(s, file);
    await put("admin", "BLOCK");
    try {
      const refused = await verify(held.b, held.csrf, held.code);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
    } finally {
      await lift("admin");
    }
    expect(published).toEqual([]);

    const { b, code, csrf } = await startAdminMfa(s, file);
    expect(published).toEqual([]); // the password alone completes nothing
    expect((await verify(b, csrf, code)).status).toBe(200);
    expect(published).toMatchObject([{ username: "admin", method: "mfa", remoteAddress: "127.0.0.1" }]);
    expect(published).toHaveLength(1);
  });
});
