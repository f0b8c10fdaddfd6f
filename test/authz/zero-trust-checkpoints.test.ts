import { currentAuthentication } from "@keyward/core";
import { type ZeroTrustAction, ZeroTrustActionService } from "@keyward/core/authz";
import { UserRepository } from "@keyward/core/ports";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sessionHandle } from "../../packages/core/src/authz/zerotrust/zero-trust-plugin.js";
import {
  Browser,
  codeAfter,
  csrfOfSession,
  demoSecurity,
  type IdentityTestServer,
  me,
  newOutboxFile,
  primaryForm,
  startAdminMfa,
  startMfaServer,
  verify,
  waitForLine,
  outbox,
} from "../identity/mfa/mfa-test-support.js";
import {
  assertion,
  csrfOf,
  jsonHeaders,
  localOrigin,
  registerPasskey,
  SoftwareAuthenticator,
  signInWithPassword,
} from "../identity/passkey-http-support.js";

// Identity's checkpoints under zero trust (docs/authorization.md, "Zero trust at sign-in, refresh,
// step-up and /api/me"): a BLOCKed user is refused everywhere but logout, and everything works again
// once the BLOCK is lifted. `user` signs in without MFA; `admin` (ROLE_ADMIN) needs an emailed code.

const file = newOutboxFile();
let s: IdentityTestServer;
let device: SoftwareAuthenticator;

beforeAll(async () => {
  s = await startMfaServer({
    outbox: file,
    security: demoSecurity,
    routes: (routes) => {
      const handler = (ex: Parameters<typeof currentAuthentication>[0]) => ({
        factors: currentAuthentication(ex)?.factors.map((f) => f.type),
      });
      routes.add({ method: "GET", path: "/account/security", handler });
      routes.add({ method: "GET", path: "/api/account/security", handler });
    },
  });
  device = new SoftwareAuthenticator(localOrigin(s));
  const owner = new Browser(s.url);
  const csrf = await signInWithPassword(owner, "user", "password");
  expect((await registerPasskey(owner, device, jsonHeaders(csrf))).status).toBe(201);
});
afterAll(() => s.close());

// Whatever a test wrote, the next one starts from no record.
const written = new Set<string>();
afterEach(async () => {
  for (const subject of written) await lift(subject);
  written.clear();
});

async function subjectOf(username: string): Promise<string> {
  const account = await s.platform.resolve(UserRepository).findByUsername(username);
  if (!account) throw new Error(`no user ${username}`);
  return `user:${account.id}`;
}

async function put(subject: string, action: ZeroTrustAction): Promise<void> {
  written.add(subject);
  await s.platform.resolve(ZeroTrustActionService).set(subject, action, { source: "admin", reason: "test" });
}

async function lift(subject: string): Promise<void> {
  await s.platform.resolve(ZeroTrustActionService).clear(subject, { source: "admin" });
}

interface Pair {
  accessToken: string;
  refreshToken: string;
}

async function restSignIn(username: string, password: string): Promise<Response> {
  return new Browser(s.url).postJson("/api/login", { username, password });
}

async function tokens(username: string, password: string): Promise<Pair> {
  const res = await restSignIn(username, password);
  expect(res.status).toBe(200);
  return (await res.json()) as Pair;
}

function bearer(pair: Pair): Record<string, string> {
  return { authorization: `Bearer ${pair.accessToken}`, accept: "application/json" };
}

async function session(username: string, password: string): Promise<{ b: Browser; csrf: string }> {
  const b = new Browser(s.url);
  expect((await primaryForm(b, username, password)).status).toBe(302);
  return { b, csrf: await csrfOfSession(b) };
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

async function passkeySignIn(): Promise<{ res: Response; b: Browser }> {
  const b = new Browser(s.url);
  const headers = jsonHeaders(await csrfOf(b));
  const signed = await assertion(b, device, headers, { username: "user" });
  return { res: await b.postJson("/login/webauthn", signed, headers), b };
}

function refresh(refreshToken: string): Promise<Response> {
  return new Browser(s.url).postJson("/api/token/refresh", { refreshToken });
}

async function expectBlocked(res: Response): Promise<Record<string, unknown>> {
  const body = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(body)).toBe(403);
  expect(body).toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
  expect(JSON.stringify(body)).not.toContain("test"); // the operator's reason stays on the server
  return body;
}

describe("a zero-trust BLOCK at identity's checkpoints", () => {
  it("refuses every sign-in, refresh, step-up and /api/me with 403 ZERO_TRUST_BLOCKED, lets logout through, and lifting it restores everything", async () => {
    const subject = await subjectOf("user");
    // Held from before the BLOCK: a session, a token pair, and sessions/tokens to log out with.
    const held = await session("user", "password");
    const pair = await tokens("user", "password");
    const refreshed = await tokens("user", "password");
    const leaving = await session("user", "password");
    const leavingPair = await tokens("user", "password");
    await put(subject, "BLOCK");

    // New sign-ins on every chain: refused after the credentials are verified; nothing is issued.
    const form = new Browser(s.url);
    await expectBlocked(await primaryForm(form, "user", "password", true));
    expect((await me(form)).status).toBe(401);
    const browser = new Browser(s.url);
    const page = await primaryForm(browser, "user", "password");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/login?error");
    const rest = await expectBlocked(await restSignIn("user", "password"));
    expect(rest).not.toHaveProperty("accessToken");
    expect(rest).not.toHaveProperty("refreshToken");
    await expectBlocked(await ottSignIn("user"));
    const passkey = await passkeySignIn();
    await expectBlocked(passkey.res);
    expect((await me(passkey.b)).status).toBe(401);
    // A wrong password still says only that: the block is told to whoever proves the password.
    const wrong = await restSignIn("user", "wrong");
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: "BAD_CREDENTIALS" });

    // /api/me: a blocked client learns it is blocked, by session and by bearer.
    await expectBlocked(await held.b.fetch("/api/me", { headers: { accept: "application/json" } }));
    await expectBlocked(await new Browser(s.url).fetch("/api/me", { headers: bearer(pair) }));

    // Refresh: refused before the token is spent; its family is revoked.
    await expectBlocked(await refresh(refreshed.refreshToken));

    // A step-up does not start (no code is sent), by session and by bearer.
    const sentBefore = outbox(file).length;
    await expectBlocked(await held.b.fetch("/account/security", { headers: { accept: "application/json" } }));
    await expectBlocked(await new Browser(s.url).fetch("/api/account/security", { headers: bearer(pair) }));
    expect(outbox(file).length).toBe(sentBefore);

    // Logout always works.
    const out = await leaving.b.postJson("/logout", {}, { "x-csrf-token": leaving.csrf });
    expect(out.status).toBe(200);
    expect((await me(leaving.b)).status).toBe(401);
    const outBearer = await new Browser(s.url).postJson(
      "/api/logout",
      { refreshToken: leavingPair.refreshToken },
      { authorization: `Bearer ${leavingPair.accessToken}` },
    );
    expect(outBearer.status).toBe(200);

    await lift(subject);

    // Everything works again: the held session and token, every sign-in, a new pair's refresh.
    expect((await me(held.b)).status).toBe(200);
    expect((await new Browser(s.url).fetch("/api/me", { headers: bearer(pair) })).status).toBe(200);
    expect((await primaryForm(new Browser(s.url), "user", "password", true)).status).toBe(200);
    expect((await ottSignIn("user")).status).toBe(200);
    expect((await passkeySignIn()).res.status).toBe(200);
    const fresh = await tokens("user", "password");
    expect((await refresh(fresh.refreshToken)).status).toBe(200);
    // The refresh token refused under the BLOCK stays revoked: whoever held it signs in again.
    const revoked = await refresh(refreshed.refreshToken);
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toMatchObject({ code: "INVALID_TOKEN" });
    const { result, code } = await codeAfter(file, "user", () =>
      held.b.fetch("/account/security", { headers: { accept: "application/json" } }),
    );
    expect(result.status).toBe(401);
    expect((await verify(held.b, await csrfOfSession(held.b), code)).status).toBe(200);
  });

  it("refuses to complete a step-up started before the BLOCK: the session is not upgraded, no token is issued", async () => {
    const subject = await subjectOf("user");
    const held = await session("user", "password");
    const pair = await tokens("user", "password");
    const bySession = await codeAfter(file, "user", () =>
      held.b.fetch("/account/security", { headers: { accept: "application/json" } }),
    );
    expect(bySession.result.status).toBe(401);
    // A bearer client is bound to its MFA session by the cookie of the challenge answer.
    const client = new Browser(s.url);
    const byBearer = await codeAfter(file, "user", () =>
      client.fetch("/api/account/security", { headers: bearer(pair) }),
    );
    expect(byBearer.result.status).toBe(401);
    const csrf = await csrfOfSession(held.b);
    await put(subject, "BLOCK");
    try {
      await expectBlocked(await verify(held.b, csrf, bySession.code));
      const bearerDone = await expectBlocked(
        await client.postJson(
          "/login/mfa-ott",
          { token: byBearer.code },
          { authorization: `Bearer ${pair.accessToken}` },
        ),
      );
      expect(bearerDone).not.toHaveProperty("accessToken");
    } finally {
      await lift(subject);
    }
    // Not upgraded: the resource still asks for the second factor. (The refused attempts never reached
    // the MFA endpoints, the `request` checkpoint stops them first, so within the coalescing window
    // the challenge from before the BLOCK is joined and no new code need be sent.)
    const still = await held.b.fetch("/account/security", { headers: { accept: "application/json" } });
    expect(still.status).toBe(401);
    expect(await still.json()).toMatchObject({ code: "MFA_CHALLENGE_REQUIRED" });
  });

  it("refuses to complete an MFA sign-in when the BLOCK lands between the password and the code", async () => {
    const subject = await subjectOf("admin");
    const { b, code, csrf } = await startAdminMfa(s, file);
    await put(subject, "BLOCK");
    try {
      await expectBlocked(await verify(b, csrf, code));
      expect((await me(b)).status).toBe(401);
      // Nor does a blocked admin get a code: the primary step is refused first.
      const before = outbox(file).length;
      await expectBlocked(await primaryForm(new Browser(s.url), "admin", "admin", true));
      expect(outbox(file).length).toBe(before);
    } finally {
      await lift(subject);
    }
    expect((await startAdminMfa(s, file)).code).toMatch(/\d+/);
  });

  it("a session BLOCK refuses that session's /api/me and step-up; a new sign-in (a new session) goes on", async () => {
    const held = await session("user", "password");
    const handle = sessionHandle(held.b.cookies.get("PLATFORM_SESSION")!);
    await put(`session:${handle}`, "BLOCK");
    await expectBlocked(await held.b.fetch("/api/me", { headers: { accept: "application/json" } }));
    await expectBlocked(await held.b.fetch("/account/security", { headers: { accept: "application/json" } }));
    const other = await session("user", "password");
    expect((await me(other.b)).status).toBe(200);
    await lift(`session:${handle}`);
    expect((await me(held.b)).status).toBe(200);
  });

  it.each(["CHALLENGE", "ESCALATE"] as const)(
    "%s refuses none of the checkpoints (the protected URLs answer it)",
    async (action) => {
      const subject = await subjectOf("user");
      const pair = await tokens("user", "password");
      await put(subject, action);
      try {
        expect((await primaryForm(new Browser(s.url), "user", "password", true)).status).toBe(200);
        const signedIn = await tokens("user", "password");
        expect((await new Browser(s.url).fetch("/api/me", { headers: bearer(signedIn) })).status).toBe(200);
        expect((await refresh(pair.refreshToken)).status).toBe(200);
      } finally {
        await lift(subject);
      }
    },
  );
});

describe("a held account cannot change its credentials (the `credential` checkpoint)", () => {
  it("an unmet CHALLENGE or an ESCALATE refuses passkey registration and deletion; the list still answers; lifting it lets the user enrol", async () => {
    const subject = await subjectOf("user");
    const owner = new Browser(s.url);
    const headers = jsonHeaders(await signInWithPassword(owner, "user", "password"));
    const listed = async () => {
      const res = await owner.fetch("/webauthn/credentials", { headers });
      expect(res.status).toBe(200);
      return (await res.json()) as { id: string }[];
    };
    const before = await listed();
    expect(before.length).toBeGreaterThan(0);
    const thief = new SoftwareAuthenticator(localOrigin(s));

    for (const [action, status, code] of [
      ["CHALLENGE", 401, "MFA_CHALLENGE_REQUIRED"],
      ["ESCALATE", 423, "ZERO_TRUST_REVIEW_REQUIRED"],
    ] as const) {
      await put(subject, action);
      const options = await owner.postJson("/webauthn/register/options", {}, headers);
      expect(options.status, action).toBe(status);
      expect(await options.json()).toMatchObject({ code });
      const stored = await owner.postJson("/webauthn/register", { response: { rawId: "x" } }, headers);
      expect(stored.status, action).toBe(status);
      const removed = await owner.fetch(`/webauthn/register/${before[0]!.id}`, { method: "DELETE", headers });
      expect(removed.status, action).toBe(status);
      expect(await listed()).toEqual(before);
      await lift(subject);
    }

    // Lifted: the same session enrols a passkey again.
    expect((await registerPasskey(owner, thief, headers)).status).toBe(201);
    expect((await listed()).length).toBe(before.length + 1);
  });
});
