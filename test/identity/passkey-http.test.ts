import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  demoSecurity,
  type IdentityTestServer,
  startIdentityServer,
} from "./identity-test-server.js";
import {
  assertion,
  type CreationOptions,
  credentialsOf,
  csrfOf,
  jsonHeaders,
  localOrigin,
  registerPasskey,
  SoftwareAuthenticator,
  signInWithPassword,
} from "./passkey-http-support.js";

describe("passkeys over HTTP (the demo chains)", () => {
  let s: IdentityTestServer;
  let device: SoftwareAuthenticator;
  let owner: Browser;
  let ownerCsrf: string;
  let credentialId: string;
  beforeAll(async () => {
    s = await startIdentityServer({ security: demoSecurity });
    device = new SoftwareAuthenticator(localOrigin(s));
    owner = new Browser(s.url);
    ownerCsrf = await signInWithPassword(owner, "user", "password");
  });
  afterAll(() => s.close());

  it("refuses the management endpoints to an anonymous caller with 401 AUTHENTICATION_REQUIRED", async () => {
    const b = new Browser(s.url);
    const headers = jsonHeaders(await csrfOf(b));
    const answers = [
      await b.postJson("/webauthn/register/options", {}, headers),
      await b.postJson("/webauthn/register", {}, headers),
      await b.fetch("/webauthn/credentials", { headers }),
      await b.fetch("/webauthn/register/some-id", { method: "DELETE", headers }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: "AUTHENTICATION_REQUIRED" });
    }
  });

  it("requires the CSRF token on POST and DELETE (403 CSRF_TOKEN_INVALID)", async () => {
    const answers = [
      await owner.postJson("/webauthn/register/options", {}, jsonHeaders()),
      await owner.postJson("/webauthn/register", {}, jsonHeaders()),
      await owner.fetch("/webauthn/register/some-id", { method: "DELETE", headers: jsonHeaders() }),
      await new Browser(s.url).postJson("/webauthn/authenticate/options", {}, jsonHeaders()),
      await new Browser(s.url).postJson("/login/webauthn", {}, jsonHeaders()),
    ];
    for (const res of answers) {
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: "CSRF_TOKEN_INVALID" });
    }
  });

  it("serves assertion options anonymously, with an HttpOnly SameSite=Strict challenge cookie", async () => {
    const b = new Browser(s.url);
    const res = await b.postJson("/webauthn/authenticate/options", {}, jsonHeaders(await csrfOf(b)));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{16,}$/),
      rpId: "localhost",
      userVerification: "required",
    });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("PLATFORM_WEBAUTHN="));
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Strict/i);
  });

  it("registers a passkey over HTTP (201) and signs in with it (200); /api/me says passkey", async () => {
    const registered = await registerPasskey(owner, device, jsonHeaders(ownerCsrf), { label: "Laptop" });
    expect(registered.status).toBe(201);
    const created = (await registered.json()) as { id: string; label: string };
    expect(created).toMatchObject({ id: expect.any(String), label: "Laptop", createdAt: expect.any(String) });
    credentialId = created.id;
    expect((await credentialsOf(owner)).map((c) => c.id)).toEqual([credentialId]);

    for (const username of ["user", undefined]) {
      const b = new Browser(s.url);
      const headers = jsonHeaders(await csrfOf(b));
      const signed = await assertion(b, device, headers, { username });
      const res = await b.postJson("/login/webauthn", signed, headers);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true, redirectUrl: "/" });
      expect(b.cookies.has("PLATFORM_WEBAUTHN")).toBe(false);
      expect(await (await b.fetch("/api/me")).json()).toMatchObject({ username: "user", method: "passkey" });
    }
  });

  it("answers options for every username alike: a passkey holder, a user without one, an unknown name", async () => {
    const b = new Browser(s.url);
    const headers = jsonHeaders(await csrfOf(b));
    const shapeFor = async (username?: string) => {
      const res = await b.postJson("/webauthn/authenticate/options", username ? { username } : {}, headers);
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      return JSON.stringify({ ...body, challenge: String(body.challenge).length });
    };
    const known = await shapeFor("user");
    expect(JSON.parse(known)).toMatchObject({ allowCredentials: [], userVerification: "required" });
    for (const username of ["admin", "nobody-at-all", undefined])
      expect(await shapeFor(username)).toBe(known);
  });

  it("refuses a replayed assertion, with or without the spent challenge cookie", async () => {
    const b = new Browser(s.url);
    const headers = jsonHeaders(await csrfOf(b));
    const signed = await assertion(b, device, headers, { username: "user" });
    const challengeCookie = b.cookies.get("PLATFORM_WEBAUTHN")!;
    expect((await b.postJson("/login/webauthn", signed, headers)).status).toBe(200);
    for (const cookie of [challengeCookie, undefined]) {
      const attacker = new Browser(s.url);
      const attackerHeaders = jsonHeaders(await csrfOf(attacker));
      if (cookie) attacker.cookies.set("PLATFORM_WEBAUTHN", cookie);
      const replay = await attacker.postJson("/login/webauthn", signed, attackerHeaders);
      expect([400, 401]).toContain(replay.status);
      expect(await replay.json()).toMatchObject({
        success: false,
        code: expect.stringMatching(/^WEBAUTHN_/),
      });
      expect((await attacker.fetch("/api/me", { headers: jsonHeaders() })).status).toBe(401);
    }
  });

  it("refuses an assertion made for another origin with 401 WEBAUTHN_VERIFICATION_FAILED", async () => {
    const b = new Browser(s.url);
    const headers = jsonHeaders(await csrfOf(b));
    const signed = await assertion(b, device, headers, { tweaks: { origin: "http://localhost.evil.test" } });
    const res = await b.postJson("/login/webauthn", signed, headers);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ success: false, code: "WEBAUTHN_VERIFICATION_FAILED" });
  });

  it("answers 404 to a DELETE of another user's passkey; refuses another user's challenge", async () => {
    const admin = new Browser(s.url);
    const csrf = await signInWithPassword(admin, "admin", "admin");
    const res = await admin.fetch(`/webauthn/register/${credentialId}`, {
      method: "DELETE",
      headers: jsonHeaders(csrf),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "NOT_FOUND" });
    // The owner's session presents the challenge cookie of admin's registration ceremony.
    const options = await admin.postJson("/webauthn/register/options", {}, jsonHeaders(csrf));
    const response = new SoftwareAuthenticator(localOrigin(s)).createCredential(
      (await options.json()) as CreationOptions,
    );
    owner.cookies.set("PLATFORM_WEBAUTHN", admin.cookies.get("PLATFORM_WEBAUTHN")!);
    const stolen = await owner.postJson("/webauthn/register", { response }, jsonHeaders(ownerCsrf));
    expect(stolen.status).toBe(400);
    expect(await stolen.json()).toMatchObject({ code: "WEBAUTHN_CHALLENGE_INVALID" });
    expect(await credentialsOf(admin)).toEqual([]);
    expect((await credentialsOf(owner)).map((c) => c.id)).toEqual([credentialId]);
  });

  it("answers malformed, oversized and non-object bodies with 4xx and stores nothing", async () => {
    const headers = { ...jsonHeaders(ownerCsrf), "content-type": "application/json" };
    const bodies: [string, number][] = [
      ["{not json", 400],
      [JSON.stringify({ response: "x".repeat(1_100_000) }), 413],
      ["[1,2,3]", 400],
      ['"a string"', 400],
      ["null", 400],
      [JSON.stringify({ response: { rawId: 5 } }), 400],
    ];
    for (const [body, status] of bodies) {
      expect((await owner.postJson("/webauthn/register/options", {}, jsonHeaders(ownerCsrf))).status).toBe(
        200,
      );
      const res = await owner.fetch("/webauthn/register", { method: "POST", headers, body });
      expect(res.status, body.slice(0, 40)).toBe(status);
      const anon = new Browser(s.url);
      const login = await anon.fetch("/login/webauthn", {
        method: "POST",
        headers: { ...jsonHeaders(await csrfOf(anon)), "content-type": "application/json" },
        body,
      });
      expect(login.status, body.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(login.status).toBeLessThan(500);
    }
    expect((await credentialsOf(owner)).map((c) => c.id)).toEqual([credentialId]);
  });
});

describe("passkey options over HTTP (custom chains)", () => {
  let s: IdentityTestServer;
  const acmeOrigin = "http://localhost:1";
  const device = new SoftwareAuthenticator(acmeOrigin);
  let accessToken: string;
  beforeAll(async () => {
    s = await startIdentityServer({
      security: (r) =>
        r
          // Registered first, default order 400; it also matches /webauthn/** but Acme (order 50) wins there.
          .passkey((p) =>
            p
              .assertionOptionsEndpoint("/pk/options")
              .loginProcessingUrl("/pk/login")
              .rawHttp((h) => h.securityMatcher("/pk/**", "/webauthn/**")),
          )
          .oauth2()
          .form((f) => f.rawHttp((h) => h.securityMatcher("/login", "/csrf", "/api/me")))
          .session()
          .passkey((p) =>
            p
              .rpName("Acme")
              .rpId("localhost")
              .allowedOrigins(acmeOrigin)
              .order(50)
              .rawHttp((h) => h.securityMatcher("/webauthn/**")),
          )
          .session()
          .build(),
    });
  });
  afterAll(() => s.close());

  it("creation options carry rpName and rpId of the lower-order chain; only allowedOrigins are accepted", async () => {
    const b = new Browser(s.url);
    const headers = jsonHeaders(await signInWithPassword(b, "user", "password"));
    const options = await b.postJson("/webauthn/register/options", {}, headers);
    expect(await options.json()).toMatchObject({ rp: { name: "Acme", id: "localhost" } });
    const realOrigin = new SoftwareAuthenticator(localOrigin(s));
    const refused = await registerPasskey(b, realOrigin, headers);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: "WEBAUTHN_VERIFICATION_FAILED" });
    expect(await credentialsOf(b)).toEqual([]);
    expect((await registerPasskey(b, device, headers, { label: "Acme key" })).status).toBe(201);
    expect((await credentialsOf(b)).map((c) => c.label)).toEqual(["Acme key"]);
  });

  it("the .oauth2() chain serves its custom endpoints, no CSRF, and answers tokens without a cookie", async () => {
    const b = new Browser(s.url);
    const signed = await assertion(b, device, jsonHeaders(), {
      url: "/pk/options",
      username: "user",
      tweaks: { origin: localOrigin(s) },
    });
    const res = await b.postJson("/pk/login", signed, jsonHeaders());
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ success: true, tokenType: "Bearer", refreshToken: expect.any(String) });
    expect(b.cookies.has("PLATFORM_SESSION")).toBe(false);
    accessToken = body.accessToken as string;
    const me = await fetch(`${s.url}/api/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(await me.json()).toMatchObject({ username: "user", method: "passkey" });
    // The default processing URL is no chain's any more: no route.
    expect((await new Browser(s.url).postJson("/login/webauthn", signed, jsonHeaders())).status).toBe(404);
  });

  it("management needs a session or a bearer token (which is exempt from CSRF)", async () => {
    const anonymous = await new Browser(s.url).fetch("/webauthn/credentials", { headers: jsonHeaders() });
    expect(anonymous.status).toBe(401);
    const bearer = { ...jsonHeaders(), authorization: `Bearer ${accessToken}` };
    const b = new Browser(s.url);
    expect((await credentialsOf(b, bearer)).map((c) => c.label)).toEqual(["Acme key"]);
    const options = await b.postJson("/webauthn/register/options", {}, bearer);
    expect(options.status).toBe(200);
    expect(await options.json()).toMatchObject({ rp: { name: "Acme" } });
  });
});
