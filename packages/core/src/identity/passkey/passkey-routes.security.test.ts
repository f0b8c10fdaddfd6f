import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { describe, expect, it } from "vitest";
import { jsonOf, passkeyHttpKit } from "./passkey-http-kit.test-support.js";
import { MAX_WEBAUTHN_FIELD_LENGTH } from "./webauthn-response-json.js";

type HttpKit = Awaited<ReturnType<typeof passkeyHttpKit>>;

/** A kit where alice registered a passkey with `kit.authenticator`. */
async function withPasskey(): Promise<HttpKit & { credentialId: string }> {
  const kit = await passkeyHttpKit();
  const stored = await kit.register();
  return { ...kit, credentialId: stored.id };
}

async function assertionOptions(browser: ReturnType<HttpKit["browser"]>) {
  const response = await browser.request("POST", "/webauthn/authenticate/options");
  return response.body as unknown as PublicKeyCredentialRequestOptionsJSON;
}

describe("passkey management requires a signed-in user", () => {
  it.each([
    ["POST", "/webauthn/register/options", undefined],
    ["POST", "/webauthn/register", { response: {} }],
    ["GET", "/webauthn/credentials", undefined],
    ["DELETE", "/webauthn/register/Y3JlZA", undefined],
  ])("%s %s answers 401 AUTHENTICATION_REQUIRED", async (method, url, json) => {
    const kit = await withPasskey();
    const browser = kit.browser();
    await browser.loadPage();
    const response = await browser.request(method, url, { json });
    expect(response.status).toBe(401);
    expect(jsonOf(response)).toMatchObject({ code: "AUTHENTICATION_REQUIRED" });
    expect(response.cookies.find((c) => c.name === "PLATFORM_WEBAUTHN")).toBeUndefined();
    expect(await kit.credentials.findById(kit.credentialId)).toBeDefined();
  });
});

describe("passkey challenges over HTTP", () => {
  it("refuses a sign-in from a browser that never asked for options (another browser's challenge)", async () => {
    const kit = await withPasskey();
    const victim = kit.browser();
    await victim.loadPage();
    const options = await assertionOptions(victim);
    const assertion = kit.authenticator.getAssertion(options);
    const attacker = kit.browser();
    await attacker.loadPage();
    const response = await attacker.request("POST", "/login/webauthn", { json: assertion });
    expect(response.status).toBe(400);
    expect(jsonOf(response)).toMatchObject({ success: false, code: "WEBAUTHN_CHALLENGE_INVALID" });
    expect(attacker.cookies.get("PLATFORM_SESSION")).toBeDefined();
    const page = await attacker.loadPage();
    expect(page).toContain("Not signed in.");
  });

  it("refuses an assertion signed over another browser's challenge, even with options of its own", async () => {
    const kit = await withPasskey();
    const victim = kit.browser();
    await victim.loadPage();
    const assertion = kit.authenticator.getAssertion(await assertionOptions(victim));
    const attacker = kit.browser();
    await attacker.loadPage();
    await assertionOptions(attacker);
    const response = await attacker.request("POST", "/login/webauthn", { json: assertion });
    expect(response.status).toBe(401);
    expect(jsonOf(response)).toMatchObject({ success: false, code: "WEBAUTHN_VERIFICATION_FAILED" });
  });

  it("refuses a replay: the cookie is cleared and the challenge spent, even if the cookie is re-sent", async () => {
    const kit = await withPasskey();
    const browser = kit.browser();
    await browser.loadPage();
    await assertionOptions(browser);
    const challengeCookie = browser.cookies.get("PLATFORM_WEBAUTHN")!;
    const assertion = kit.authenticator.getAssertion((await kit.service.authenticationOptions()).options);
    // Any response spends the challenge: here one signed over the wrong challenge.
    const first = await browser.request("POST", "/login/webauthn", { json: assertion });
    expect(jsonOf(first)).toMatchObject({ code: "WEBAUTHN_VERIFICATION_FAILED" });
    expect(first.cookies).toContainEqual(expect.objectContaining({ name: "PLATFORM_WEBAUTHN", maxAge: 0 }));
    browser.cookies.set("PLATFORM_WEBAUTHN", challengeCookie);
    const second = await browser.request("POST", "/login/webauthn", { json: assertion });
    expect(jsonOf(second)).toMatchObject({ code: "WEBAUTHN_CHALLENGE_INVALID" });
  });

  it("refuses a successful assertion posted a second time", async () => {
    const kit = await withPasskey();
    const browser = kit.browser();
    await browser.loadPage();
    const options = await assertionOptions(browser);
    const challengeCookie = browser.cookies.get("PLATFORM_WEBAUTHN")!;
    const assertion = kit.authenticator.getAssertion(options);
    expect((await browser.request("POST", "/login/webauthn", { json: assertion })).status).toBe(200);
    const thief = kit.browser();
    await thief.loadPage();
    thief.cookies.set("PLATFORM_WEBAUTHN", challengeCookie);
    const replay = await thief.request("POST", "/login/webauthn", { json: assertion });
    expect(jsonOf(replay)).toMatchObject({ success: false, code: "WEBAUTHN_CHALLENGE_INVALID" });
  });

  it("refuses an expired challenge", async () => {
    const kit = await withPasskey();
    const browser = kit.browser();
    await browser.loadPage();
    const options = await assertionOptions(browser);
    kit.clock.advance(5 * 60_000);
    const response = await browser.request("POST", "/login/webauthn", {
      json: kit.authenticator.getAssertion(options),
    });
    expect(jsonOf(response)).toMatchObject({ success: false, code: "WEBAUTHN_CHALLENGE_INVALID" });
  });

  it("refuses a registration with another user's registration challenge cookie", async () => {
    const kit = await passkeyHttpKit();
    const alice = kit.browser();
    await alice.signInAs(kit.alice);
    const options = await alice.request("POST", "/webauthn/register/options");
    const response = kit.authenticator.createCredential(
      options.body as unknown as PublicKeyCredentialCreationOptionsJSON,
    );
    const bob = kit.browser();
    await bob.signInAs(kit.bob);
    bob.cookies.set("PLATFORM_WEBAUTHN", alice.cookies.get("PLATFORM_WEBAUTHN")!);
    const stolen = await bob.request("POST", "/webauthn/register", { json: { response } });
    expect(stolen.status).toBe(400);
    expect(jsonOf(stolen)).toMatchObject({ code: "WEBAUTHN_CHALLENGE_INVALID" });
    expect(await kit.credentials.listByUser(kit.bob.id)).toEqual([]);
    expect(await kit.credentials.listByUser(kit.alice.id)).toEqual([]);
  });

  it("needs the CSRF token for options, sign-in and management (the chain's CSRF filter)", async () => {
    const kit = await withPasskey();
    const browser = kit.browser();
    await browser.signInAs(kit.alice);
    for (const [method, url] of [
      ["POST", "/webauthn/authenticate/options"],
      ["POST", "/login/webauthn"],
      ["POST", "/webauthn/register/options"],
      ["DELETE", `/webauthn/register/${kit.credentialId}`],
    ] as const) {
      const response = await browser.request(method, url, { json: {}, noCsrf: true });
      expect(response.status, url).toBe(403);
    }
    expect(await kit.credentials.findById(kit.credentialId)).toBeDefined();
  });
});

describe("passkey deletion", () => {
  it("answers 404 for another user's credential and keeps it", async () => {
    const kit = await withPasskey();
    const bob = kit.browser();
    await bob.signInAs(kit.bob);
    const response = await bob.request("DELETE", `/webauthn/register/${kit.credentialId}`);
    expect(response.status).toBe(404);
    expect(jsonOf(response)).toMatchObject({ code: "NOT_FOUND" });
    expect(await kit.credentials.findById(kit.credentialId)).toBeDefined();
  });

  it("answers 404 for an empty or nested id", async () => {
    const kit = await withPasskey();
    const alice = kit.browser();
    await alice.signInAs(kit.alice);
    for (const url of ["/webauthn/register/", `/webauthn/register/${kit.credentialId}/x`]) {
      expect((await alice.request("DELETE", url)).status, url).toBe(404);
    }
    expect(await kit.credentials.findById(kit.credentialId)).toBeDefined();
  });
});

describe("malformed and oversized bodies over HTTP", () => {
  const huge = "A".repeat(MAX_WEBAUTHN_FIELD_LENGTH + 4);

  it("refuses bad sign-in bodies with 4xx and signs nobody in", async () => {
    const kit = await withPasskey();
    const browser = kit.browser();
    await browser.loadPage();
    const cases: [
      string,
      { json?: unknown; body?: string; headers?: Record<string, string> },
      number,
      string,
    ][] = [
      ["not JSON", { body: "{", headers: { "content-type": "application/json" } }, 400, "MALFORMED_JSON"],
      [
        "a form",
        { body: "id=x", headers: { "content-type": "application/x-www-form-urlencoded" } },
        415,
        "UNSUPPORTED_MEDIA_TYPE",
      ],
      ["an array", { json: [] }, 400, "MALFORMED_BODY"],
      ["an empty object", { json: {} }, 400, "VALIDATION_FAILED"],
      [
        "an oversized signature",
        { json: { id: "YQ", rawId: "YQ", type: "public-key", response: { signature: huge } } },
        400,
        "VALIDATION_FAILED",
      ],
      [
        "a non-base64url id",
        { json: { id: "a+b/", rawId: "a+b/", type: "public-key", response: {} } },
        400,
        "VALIDATION_FAILED",
      ],
    ];
    for (const [what, init, status, code] of cases) {
      await assertionOptions(browser);
      const response = await browser.request("POST", "/login/webauthn", init);
      expect(response.status, what).toBe(status);
      expect(jsonOf(response), what).toMatchObject({ success: false, code });
    }
    expect(await browser.loadPage()).toContain("Not signed in.");
    expect((await kit.credentials.findById(kit.credentialId))?.counter).toBe(0);
  });

  it("refuses bad registration bodies with 4xx and stores nothing", async () => {
    const kit = await passkeyHttpKit();
    const browser = kit.browser();
    await browser.signInAs(kit.alice);
    const options = await browser.request("POST", "/webauthn/register/options");
    const good = kit.authenticator.createCredential(
      options.body as unknown as PublicKeyCredentialCreationOptionsJSON,
    );
    for (const json of [
      {},
      { response: "x" },
      { response: { ...good, response: { ...good.response, attestationObject: huge } } },
      { response: { ...good, response: { ...good.response, clientDataJSON: "!!" } } },
      { response: good, label: "x".repeat(100) },
    ]) {
      const response = await browser.request("POST", "/webauthn/register", { json });
      expect(response.status).toBe(400);
      expect(jsonOf(response)).toMatchObject({ code: "VALIDATION_FAILED" });
    }
    expect(await kit.credentials.listByUser(kit.alice.id)).toEqual([]);
  });

  it("refuses a bad username in the assertion options body", async () => {
    const kit = await passkeyHttpKit();
    const browser = kit.browser();
    await browser.loadPage();
    const response = await browser.request("POST", "/webauthn/authenticate/options", {
      json: { username: { $ne: "" } },
    });
    expect(response.status).toBe(400);
    expect(jsonOf(response)).toMatchObject({ code: "VALIDATION_FAILED" });
    expect(response.cookies.find((c) => c.name === "PLATFORM_WEBAUTHN")).toBeUndefined();
  });
});
