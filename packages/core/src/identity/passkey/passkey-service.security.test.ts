import { describe, expect, it } from "vitest";
import { codeOf, ORIGIN, passkeyKit } from "./passkey-kit.test-support.js";
import { IDENTITY_ERROR_CODES } from "../identity-error-codes.js";
import { type CeremonyTweaks, SoftwareAuthenticator } from "./software-authenticator.test-support.js";
import { MAX_WEBAUTHN_FIELD_LENGTH } from "./webauthn-response-json.js";

type Kit = Awaited<ReturnType<typeof passkeyKit>>;

/** Registration options for alice and a response built with `tweaks`; returns the verification's code. */
async function registerWith(kit: Kit, tweaks: CeremonyTweaks): Promise<string> {
  const ref = { userId: kit.alice.id, username: "alice" };
  const issued = await kit.service.registrationOptions(ref);
  const response = kit.authenticator.createCredential(issued.options, tweaks);
  return codeOf(kit.service.verifyRegistration(ref, issued.challengeId, response));
}

/** Assertion options and a response from alice's registered passkey built with `tweaks`. */
async function signInWith(kit: Kit, tweaks: Parameters<SoftwareAuthenticator["getAssertion"]>[1]) {
  const issued = await kit.service.authenticationOptions();
  const response = kit.authenticator.getAssertion(issued.options, tweaks);
  return codeOf(kit.service.verifyAuthentication(issued.challengeId, response));
}

describe("passkey registration attacks", () => {
  it.each([
    ["wrong origin", { origin: "https://evil.example" }],
    ["an IP-address origin", { origin: "http://127.0.0.1:8080" }],
    ["wrong rpId", { rpId: "evil.example" }],
    ["user verification missing", { uv: false }],
    ["user presence missing", { up: false }],
    ["an assertion's client data type", { type: "webauthn.get" }],
    ["another challenge signed", { challenge: Buffer.alloc(32, 7).toString("base64url") }],
  ] satisfies [string, CeremonyTweaks][])(
    "refuses %s with WEBAUTHN_VERIFICATION_FAILED, storing nothing",
    async (_, tweaks) => {
      const kit = await passkeyKit();
      expect(await registerWith(kit, tweaks)).toBe("WEBAUTHN_VERIFICATION_FAILED");
      expect(await kit.credentials.listByUser(kit.alice.id)).toEqual([]);
      expect(kit.audit.events().at(-1)).toMatchObject({
        type: "auth.passkey.registration-failed",
        outcome: "failure",
        data: { reason: "WEBAUTHN_VERIFICATION_FAILED" },
      });
    },
  );

  it("refuses a replayed registration (the challenge is single use)", async () => {
    const kit = await passkeyKit();
    const ref = { userId: kit.alice.id, username: "alice" };
    const issued = await kit.service.registrationOptions(ref);
    const response = kit.authenticator.createCredential(issued.options);
    await kit.service.verifyRegistration(ref, issued.challengeId, response);
    expect(await codeOf(kit.service.verifyRegistration(ref, issued.challengeId, response))).toBe(
      "WEBAUTHN_CHALLENGE_INVALID",
    );
  });

  it("refuses a registration challenge issued to another user, and burns it", async () => {
    const kit = await passkeyKit();
    const issued = await kit.service.registrationOptions({ userId: kit.alice.id, username: "alice" });
    const response = kit.authenticator.createCredential(issued.options);
    const bob = { userId: kit.bob.id, username: "bob" };
    expect(await codeOf(kit.service.verifyRegistration(bob, issued.challengeId, response))).toBe(
      "WEBAUTHN_CHALLENGE_INVALID",
    );
    const alice = { userId: kit.alice.id, username: "alice" };
    expect(await codeOf(kit.service.verifyRegistration(alice, issued.challengeId, response))).toBe(
      "WEBAUTHN_CHALLENGE_INVALID",
    );
    expect(await kit.credentials.listByUser(kit.bob.id)).toEqual([]);
  });

  it("refuses an assertion challenge used for registration", async () => {
    const kit = await passkeyKit();
    const ref = { userId: kit.alice.id, username: "alice" };
    const reg = await kit.service.registrationOptions(ref);
    const auth = await kit.service.authenticationOptions();
    const response = kit.authenticator.createCredential(reg.options);
    expect(await codeOf(kit.service.verifyRegistration(ref, auth.challengeId, response))).toBe(
      "WEBAUTHN_CHALLENGE_INVALID",
    );
  });

  it("refuses an expired registration challenge", async () => {
    const kit = await passkeyKit();
    const ref = { userId: kit.alice.id, username: "alice" };
    const issued = await kit.service.registrationOptions(ref);
    kit.clock.advance(kit.service.challengeTtlMs);
    const response = kit.authenticator.createCredential(issued.options);
    expect(await codeOf(kit.service.verifyRegistration(ref, issued.challengeId, response))).toBe(
      "WEBAUTHN_CHALLENGE_INVALID",
    );
  });

  it("refuses a response whose id is not the attested credential id", async () => {
    const kit = await passkeyKit();
    const ref = { userId: kit.alice.id, username: "alice" };
    const issued = await kit.service.registrationOptions(ref);
    const response = kit.authenticator.createCredential(issued.options);
    const forged = { ...response, id: "Zm9yZ2Vk", rawId: "Zm9yZ2Vk" };
    expect(await codeOf(kit.service.verifyRegistration(ref, issued.challengeId, forged))).toBe(
      "WEBAUTHN_VERIFICATION_FAILED",
    );
    expect(await kit.credentials.findById("Zm9yZ2Vk")).toBeUndefined();
  });
});

describe("passkey sign-in attacks", () => {
  it.each([
    ["wrong origin", { origin: "https://evil.example" }],
    ["wrong rpId", { rpId: "evil.example" }],
    ["user verification missing", { uv: false }],
    ["a bad signature", { corruptSignature: true }],
    ["a registration's client data type", { type: "webauthn.create" }],
    ["another challenge signed", { challenge: Buffer.alloc(32, 9).toString("base64url") }],
  ] as const)("refuses %s with WEBAUTHN_VERIFICATION_FAILED and keeps the counter", async (_, tweaks) => {
    const kit = await passkeyKit();
    const stored = await kit.register();
    expect(await signInWith(kit, tweaks)).toBe("WEBAUTHN_VERIFICATION_FAILED");
    expect(await kit.credentials.findById(stored.id)).toEqual(stored);
    expect(kit.audit.events().at(-1)).toMatchObject({
      type: "auth.login.failure",
      data: { method: "passkey", reason: "WEBAUTHN_VERIFICATION_FAILED" },
    });
  });

  it("refuses a replayed assertion: the second use of a challenge is WEBAUTHN_CHALLENGE_INVALID", async () => {
    const kit = await passkeyKit();
    await kit.register();
    const issued = await kit.service.authenticationOptions();
    const response = kit.authenticator.getAssertion(issued.options);
    await kit.service.verifyAuthentication(issued.challengeId, response);
    expect(await codeOf(kit.service.verifyAuthentication(issued.challengeId, response))).toBe(
      "WEBAUTHN_CHALLENGE_INVALID",
    );
  });

  it("refuses another browser's challenge: the response signs a challenge this browser never held", async () => {
    const kit = await passkeyKit();
    await kit.register();
    const victim = await kit.service.authenticationOptions();
    const attacker = await kit.service.authenticationOptions();
    const response = kit.authenticator.getAssertion(victim.options);
    expect(await codeOf(kit.service.verifyAuthentication(attacker.challengeId, response))).toBe(
      "WEBAUTHN_VERIFICATION_FAILED",
    );
    // The attacker's own challenge is spent, the victim's still works once.
    expect(await codeOf(kit.service.verifyAuthentication(attacker.challengeId, response))).toBe(
      "WEBAUTHN_CHALLENGE_INVALID",
    );
    expect((await kit.service.verifyAuthentication(victim.challengeId, response)).username).toBe("alice");
  });

  it("refuses a missing, unknown or over-long challenge id", async () => {
    const kit = await passkeyKit();
    await kit.register();
    const issued = await kit.service.authenticationOptions();
    const response = kit.authenticator.getAssertion(issued.options);
    for (const id of [undefined, "", "unknown", "x".repeat(10_000)]) {
      expect(await codeOf(kit.service.verifyAuthentication(id, response))).toBe("WEBAUTHN_CHALLENGE_INVALID");
    }
  });

  it("refuses an expired challenge (ManualClock), live until the last millisecond", async () => {
    const kit = await passkeyKit();
    await kit.register();
    const late = await kit.service.authenticationOptions();
    const onTime = await kit.service.authenticationOptions();
    kit.clock.advance(kit.service.challengeTtlMs - 1);
    const ok = kit.authenticator.getAssertion(onTime.options);
    expect((await kit.service.verifyAuthentication(onTime.challengeId, ok)).username).toBe("alice");
    kit.clock.advance(1);
    const response = kit.authenticator.getAssertion(late.options);
    expect(await codeOf(kit.service.verifyAuthentication(late.challengeId, response))).toBe(
      "WEBAUTHN_CHALLENGE_INVALID",
    );
  });

  it("refuses an unknown credential and a userHandle that is not the credential's", async () => {
    const kit = await passkeyKit();
    await kit.register();
    const stranger = new SoftwareAuthenticator(ORIGIN);
    const otherKit = await passkeyKit();
    await otherKit.register(otherKit.alice, stranger);
    expect(await signInWith({ ...kit, authenticator: stranger }, {})).toBe("WEBAUTHN_VERIFICATION_FAILED");
    const bobs = await kit.register(kit.bob, new SoftwareAuthenticator(ORIGIN));
    expect(await signInWith(kit, { userHandle: bobs.userHandle })).toBe("WEBAUTHN_VERIFICATION_FAILED");
  });

  it("rejects a counter regression (a cloned authenticator), publishes the event and audits it", async () => {
    const kit = await passkeyKit();
    const stored = await kit.register();
    const clone = kit.authenticator.clone();
    expect(await signInWith(kit, {})).toBe("resolved");
    expect(await signInWith(kit, {})).toBe("resolved");
    const issued = await kit.service.authenticationOptions();
    const response = clone.getAssertion(issued.options);
    const error = await kit.service
      .verifyAuthentication(issued.challengeId, response)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "WEBAUTHN_COUNTER_REGRESSION", status: 401 });
    expect(kit.published.at(-1)).toEqual({
      type: "passkey.counter-regression",
      payload: {
        credentialId: stored.id,
        userId: kit.alice.id,
        storedCounter: 2,
        receivedCounter: 1,
        remoteAddress: undefined,
        at: kit.clock.now(),
      },
    });
    expect(kit.audit.events().map((e) => e.type)).toContain("auth.passkey.counter-regression");
    expect((await kit.credentials.findById(stored.id))?.counter).toBe(2);
  });

  it("treats an equal counter and a drop to 0 as regression too (WebAuthn §7.2 step 22)", async () => {
    const kit = await passkeyKit();
    await kit.register();
    expect(await signInWith(kit, { counter: 5 })).toBe("resolved");
    expect(await signInWith(kit, { counter: 5 })).toBe("WEBAUTHN_COUNTER_REGRESSION");
    expect(await signInWith(kit, { counter: 0 })).toBe("WEBAUTHN_COUNTER_REGRESSION");
    expect(await signInWith(kit, { counter: 6 })).toBe("resolved");
  });

  it("never reports a regression for an assertion whose signature does not verify", async () => {
    const kit = await passkeyKit();
    await kit.register();
    expect(await signInWith(kit, { counter: 5 })).toBe("resolved");
    expect(await signInWith(kit, { counter: 1, corruptSignature: true })).toBe(
      "WEBAUTHN_VERIFICATION_FAILED",
    );
    expect(kit.published.map((e) => e.type)).not.toContain("passkey.counter-regression");
  });

  it("lets only one of two concurrent assertions with the same counter through", async () => {
    const kit = await passkeyKit();
    await kit.register();
    const a = await kit.service.authenticationOptions();
    const b = await kit.service.authenticationOptions();
    const results = await Promise.all([
      codeOf(
        kit.service.verifyAuthentication(
          a.challengeId,
          kit.authenticator.getAssertion(a.options, { counter: 3 }),
        ),
      ),
      codeOf(
        kit.service.verifyAuthentication(
          b.challengeId,
          kit.authenticator.getAssertion(b.options, { counter: 3 }),
        ),
      ),
    ]);
    expect(results.sort()).toEqual(["WEBAUTHN_COUNTER_REGRESSION", "resolved"]);
  });

  it("with a configured RP id, refuses assertions made for another RP id", async () => {
    const kit = await passkeyKit({ rpId: "example.test", allowedOrigins: () => ["https://example.test"] });
    const device = new SoftwareAuthenticator("https://example.test");
    await kit.register(kit.alice, device);
    const issued = await kit.service.authenticationOptions();
    expect(issued.options.rpId).toBe("example.test");
    const response = device.getAssertion(issued.options, { rpId: "localhost" });
    expect(await codeOf(kit.service.verifyAuthentication(issued.challengeId, response))).toBe(
      "WEBAUTHN_VERIFICATION_FAILED",
    );
  });
});

describe("malformed and oversized payloads", () => {
  const huge = "A".repeat(MAX_WEBAUTHN_FIELD_LENGTH + 1);

  it("refuses them with VALIDATION_FAILED before the challenge is spent, storing nothing", async () => {
    const kit = await passkeyKit();
    const ref = { userId: kit.alice.id, username: "alice" };
    const issued = await kit.service.registrationOptions(ref);
    const good = kit.authenticator.createCredential(issued.options);
    const bad: unknown[] = [
      undefined,
      "string",
      [],
      { ...good, id: "not base64!" },
      { ...good, rawId: "b3RoZXI" },
      { ...good, type: "password" },
      { ...good, response: { ...good.response, attestationObject: huge } },
      { ...good, response: { ...good.response, clientDataJSON: "e30" } },
      { ...good, response: { ...good.response, attestationObject: "***" } },
      { ...good, response: { ...good.response, transports: ["usb", 7] } },
      { ...good, extra: { nested: huge } },
    ];
    for (const response of bad) {
      expect(await codeOf(kit.service.verifyRegistration(ref, issued.challengeId, response))).toBe(
        "VALIDATION_FAILED",
      );
    }
    expect(await kit.credentials.listByUser(kit.alice.id)).toEqual([]);
    await kit.service.verifyRegistration(ref, issued.challengeId, good);
  });

  it("refuses malformed assertions with VALIDATION_FAILED and changes nothing", async () => {
    const kit = await passkeyKit();
    const stored = await kit.register();
    const issued = await kit.service.authenticationOptions();
    const good = kit.authenticator.getAssertion(issued.options);
    for (const response of [
      {},
      { ...good, response: { ...good.response, signature: huge } },
      { ...good, response: { ...good.response, signature: "" } },
      { ...good, response: { ...good.response, userHandle: "#" } },
      { ...good, response: "x" },
    ]) {
      expect(await codeOf(kit.service.verifyAuthentication(issued.challengeId, response))).toBe(
        "VALIDATION_FAILED",
      );
    }
    expect(await kit.credentials.findById(stored.id)).toEqual(stored);
  });
});

describe("the passkey codes of the identity table", () => {
  it("map to 4xx", () => {
    const { WEBAUTHN_CHALLENGE_INVALID, WEBAUTHN_VERIFICATION_FAILED, WEBAUTHN_COUNTER_REGRESSION } =
      IDENTITY_ERROR_CODES;
    expect({
      WEBAUTHN_CHALLENGE_INVALID: WEBAUTHN_CHALLENGE_INVALID.status,
      WEBAUTHN_VERIFICATION_FAILED: WEBAUTHN_VERIFICATION_FAILED.status,
      WEBAUTHN_COUNTER_REGRESSION: WEBAUTHN_COUNTER_REGRESSION.status,
    }).toEqual({
      WEBAUTHN_CHALLENGE_INVALID: 400,
      WEBAUTHN_VERIFICATION_FAILED: 401,
      WEBAUTHN_COUNTER_REGRESSION: 401,
    });
  });
});
