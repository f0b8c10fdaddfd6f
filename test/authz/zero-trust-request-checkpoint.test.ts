import type { SecurityRegistry } from "@keyward/core";
import { ZeroTrustActionService } from "@keyward/core/authz";
import { UserRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  demoSecurity,
  type IdentityTestServer,
  startIdentityServer,
} from "../identity/mfa/mfa-test-support.js";
import {
  type CreationOptions,
  credentialsOf,
  jsonHeaders,
  localOrigin,
  registerPasskey,
  SoftwareAuthenticator,
  signInWithPassword,
} from "../identity/passkey-http-support.js";

// The `request` checkpoint (docs/authorization.md, "Zero trust at identity's checkpoints"): a BLOCKed
// subject's every authenticated request is refused on every chain, whatever its authorization rules
// (the passkey chain has none that ask zero trust; a host chain may have static rules only), except
// the chain's logout; lifting the BLOCK restores everything. Attack report F3.

async function subjectOf(s: IdentityTestServer, username: string): Promise<string> {
  const account = await s.platform.resolve(UserRepository).findByUsername(username);
  if (!account) throw new Error(`no user ${username}`);
  return `user:${account.id}`;
}

function block(s: IdentityTestServer, subject: string): Promise<unknown> {
  return s.platform
    .resolve(ZeroTrustActionService)
    .set(subject, "BLOCK", { source: "admin", reason: "test" });
}

function lift(s: IdentityTestServer, subject: string): Promise<unknown> {
  return s.platform.resolve(ZeroTrustActionService).clear(subject, { source: "admin" });
}

async function expectBlocked(res: Response): Promise<void> {
  const text = await res.text();
  expect(res.status, text).toBe(403);
  expect(text).toContain("ZERO_TRUST_BLOCKED");
  expect(text).not.toContain("test"); // the operator's reason stays on the server
}

describe("a zero-trust BLOCK on the demo's passkey chain (F3)", () => {
  let s: IdentityTestServer;
  let origin: string;

  beforeAll(async () => {
    s = await startIdentityServer({ security: demoSecurity });
    origin = localOrigin(s);
  });
  afterAll(() => s.close());

  it("refuses passkey registration, listing, deletion and the /passkeys page; logout works; lifting restores them", async () => {
    const subject = await subjectOf(s, "user");
    const victim = new Browser(s.url);
    const headers = jsonHeaders(await signInWithPassword(victim, "user", "password"));
    const leaving = new Browser(s.url);
    const leavingHeaders = jsonHeaders(await signInWithPassword(leaving, "user", "password"));
    expect((await registerPasskey(victim, new SoftwareAuthenticator(origin), headers)).status).toBe(201);
    const [kept] = await credentialsOf(victim, headers);
    // Options asked before the BLOCK: the attacker's register call must fail on the BLOCK, not the challenge.
    const early = await victim.postJson("/webauthn/register/options", {}, headers);
    expect(early.status).toBe(200);
    const attackerKey = new SoftwareAuthenticator(origin).createCredential(
      (await early.json()) as CreationOptions,
    );

    await block(s, subject);
    try {
      await expectBlocked(await victim.postJson("/webauthn/register/options", {}, headers));
      await expectBlocked(
        await victim.postJson("/webauthn/register", { response: attackerKey, label: "attacker" }, headers),
      );
      await expectBlocked(await victim.fetch("/webauthn/credentials", { headers }));
      await expectBlocked(
        await victim.fetch(`/webauthn/register/${kept!.id}`, { method: "DELETE", headers }),
      );
      await expectBlocked(await victim.fetch("/passkeys", { headers: { accept: "text/html" } }));
      await expectBlocked(await victim.fetch("/api/me", { headers }));
      // A blocked user can always sign out.
      const out = await leaving.postJson("/logout", {}, leavingHeaders);
      expect(out.status).toBe(200);
      expect((await leaving.fetch("/api/me", { headers: jsonHeaders() })).status).toBe(401);
    } finally {
      await lift(s, subject);
    }

    // Nothing was registered or deleted during the BLOCK, and everything works again.
    const after = await credentialsOf(victim, headers);
    expect(after.map((c) => c.id)).toEqual([kept!.id]);
    expect((await victim.fetch("/passkeys", { headers: { accept: "text/html" } })).status).toBe(200);
    expect((await registerPasskey(victim, new SoftwareAuthenticator(origin), headers)).status).toBe(201);
    const removed = await victim.fetch(`/webauthn/register/${kept!.id}`, { method: "DELETE", headers });
    expect(removed.status).toBe(204);
    expect(await credentialsOf(victim, headers)).toHaveLength(1);
  });
});

/** A host's own token chain whose rules are static only (no dynamicAuthorization(), no zero-trust filter). */
function staticRulesSecurity(registry: SecurityRegistry) {
  return registry
    .rest((rest) =>
      rest.rawHttp((http) =>
        http.securityMatcher("/api/**").authorizeHttpRequests((a) => a.anyRequest().authenticated()),
      ),
    )
    .oauth2()
    .build();
}

describe("a zero-trust BLOCK on a host chain with static rules only", () => {
  let s: IdentityTestServer;

  beforeAll(async () => {
    s = await startIdentityServer({ security: staticRulesSecurity });
  });
  afterAll(() => s.close());

  it("refuses a bearer request with 403 ZERO_TRUST_BLOCKED; the bearer can log out and revoke; lifting restores access", async () => {
    const subject = await subjectOf(s, "user");
    const signIn = async () => {
      const res = await new Browser(s.url).postJson("/api/login", { username: "user", password: "password" });
      expect(res.status).toBe(200);
      return (await res.json()) as { accessToken: string; refreshToken: string };
    };
    const pair = await signIn();
    const leaving = await signIn();
    const revoking = await signIn();
    const auth = (p: { accessToken: string }) => ({
      authorization: `Bearer ${p.accessToken}`,
      accept: "application/json",
    });
    expect((await new Browser(s.url).fetch("/api/data", { headers: auth(pair) })).status).toBe(200);

    await block(s, subject);
    try {
      await expectBlocked(await new Browser(s.url).fetch("/api/data", { headers: auth(pair) }));
      await expectBlocked(await new Browser(s.url).postJson("/api/things", { a: 1 }, auth(pair)));
      const out = await new Browser(s.url).postJson(
        "/api/logout",
        { refreshToken: leaving.refreshToken },
        auth(leaving),
      );
      expect(out.status).toBe(200);
      const revoked = await new Browser(s.url).postJson(
        "/api/token/revoke",
        { refreshToken: revoking.refreshToken },
        auth(revoking),
      );
      expect(revoked.status).toBe(200);
    } finally {
      await lift(s, subject);
    }
    // The ways out worked: those sign-ins are over.
    for (const ended of [leaving, revoking]) {
      expect((await new Browser(s.url).fetch("/api/data", { headers: auth(ended) })).status).toBe(401);
    }

    const res = await new Browser(s.url).fetch("/api/data", { headers: auth(pair) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: "user" });
  });
});
