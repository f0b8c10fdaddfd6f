import { describe, expect, it } from "vitest";
import { codeOf, ORIGIN, passkeyKit } from "./passkey-kit.test-support.js";
import { PasskeyService } from "./passkey-service.js";
import { SoftwareAuthenticator } from "./software-authenticator.test-support.js";

describe("PasskeyService registration", () => {
  it("issues creation options: RP, the user's random handle, UV and a discoverable key required", async () => {
    const kit = await passkeyKit();
    const issued = await kit.service.registrationOptions({ userId: kit.alice.id, username: "alice" });
    const o = issued.options;
    expect(o.rp).toEqual({ name: "platform-identity", id: "localhost" });
    expect(o.user.name).toBe("alice");
    expect(Buffer.from(o.user.id, "base64url")).toHaveLength(32);
    expect(o.user.id).toBe(await kit.credentials.findUserHandle(kit.alice.id));
    expect(Buffer.from(o.user.id, "base64url").toString("utf8")).not.toContain("alice");
    expect(o.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    expect(o.attestation).toBe("none");
    expect(o.excludeCredentials).toEqual([]);
    expect(o.timeout).toBe(300_000);
    expect(issued.expiresAt).toBe(kit.clock.now() + 300_000);
    expect(Buffer.from(o.challenge, "base64url")).toHaveLength(32);
  });

  it("keeps one handle per user and excludes the user's existing passkeys", async () => {
    const kit = await passkeyKit();
    const first = await kit.register();
    const again = await kit.service.registrationOptions({ userId: kit.alice.id, username: "alice" });
    expect(again.options.user.id).toBe(first.userHandle);
    expect(again.options.excludeCredentials).toEqual([
      { id: first.id, transports: ["internal", "hybrid"], type: "public-key" },
    ]);
    const bobs = await kit.service.registrationOptions({ userId: kit.bob.id, username: "bob" });
    expect(bobs.options.user.id).not.toBe(first.userHandle);
  });

  it("verifies a real attestation and stores the credential", async () => {
    const kit = await passkeyKit();
    const stored = await kit.register(kit.alice, kit.authenticator, "  My laptop ");
    const device = kit.authenticator.credentials[0]!;
    expect(stored).toEqual({
      id: device.id.toString("base64url"),
      userId: kit.alice.id,
      userHandle: device.userHandle.toString("base64url"),
      publicKey: device.cosePublicKey.toString("base64url"),
      counter: 0,
      transports: ["internal", "hybrid"],
      deviceType: "singleDevice",
      backedUp: false,
      aaguid: "00000000-0000-0000-0000-000000000000",
      label: "My laptop",
      createdAt: kit.clock.now(),
      lastUsedAt: undefined,
      version: 1,
    });
    expect(await kit.credentials.findById(stored.id)).toEqual(stored);
    expect(kit.audit.events().at(-1)).toMatchObject({
      type: "auth.passkey.registered",
      outcome: "success",
      principal: "alice",
      data: { userId: kit.alice.id, credentialId: stored.id },
    });
    expect(kit.published.map((e) => e.type)).toEqual(["passkey.registered"]);
  });

  it("records a synced, backed-up passkey as multiDevice", async () => {
    const kit = await passkeyKit();
    const ref = { userId: kit.alice.id, username: "alice" };
    const issued = await kit.service.registrationOptions(ref);
    const response = kit.authenticator.createCredential(issued.options, {
      backupEligible: true,
      backedUp: true,
    });
    const stored = await kit.service.verifyRegistration(ref, issued.challengeId, response, undefined, {
      remoteAddress: "203.0.113.9",
      correlationId: "req-reg-1",
    });
    expect(stored).toMatchObject({ deviceType: "multiDevice", backedUp: true });
    expect(kit.audit.events().at(-1)).toMatchObject({
      type: "auth.passkey.registered",
      remoteAddress: "203.0.113.9",
      correlationId: "req-reg-1",
    });
    await kit.service.deleteCredential(ref, stored.id, { correlationId: "req-del-2" });
    expect(kit.audit.events().at(-1)).toMatchObject({
      type: "auth.passkey.deleted",
      correlationId: "req-del-2",
    });
  });

  it("names unlabelled passkeys Passkey 1, Passkey 2", async () => {
    const kit = await passkeyKit();
    expect((await kit.register()).label).toBe("Passkey 1");
    expect((await kit.register(kit.alice, new SoftwareAuthenticator(ORIGIN), " ")).label).toBe("Passkey 2");
  });

  it("refuses a credential id that is already registered with CONFLICT, storing nothing new", async () => {
    const kit = await passkeyKit();
    const bobs = await kit.register(kit.bob);
    const ref = { userId: kit.alice.id, username: "alice" };
    const issued = await kit.service.registrationOptions(ref);
    const response = new SoftwareAuthenticator(ORIGIN).createCredential(issued.options);
    await kit.credentials.create({ ...bobs, id: response.id });
    expect(await codeOf(kit.service.verifyRegistration(ref, issued.challengeId, response))).toBe("CONFLICT");
    expect(await kit.credentials.listByUser(kit.alice.id)).toEqual([]);
  });

  it("refuses a locked or disabled account's registration options", async () => {
    const kit = await passkeyKit();
    await kit.users.update({ ...kit.alice, locked: true });
    await kit.users.update({ ...kit.bob, enabled: false });
    expect(await codeOf(kit.service.registrationOptions({ userId: kit.alice.id, username: "alice" }))).toBe(
      "ACCOUNT_LOCKED",
    );
    expect(await codeOf(kit.service.registrationOptions({ userId: kit.bob.id, username: "bob" }))).toBe(
      "ACCOUNT_DISABLED",
    );
    expect(await codeOf(kit.service.registrationOptions({ userId: "gone", username: "gone" }))).toBe(
      "AUTHENTICATION_REQUIRED",
    );
  });

  it("refuses bad labels with VALIDATION_FAILED", async () => {
    const kit = await passkeyKit();
    const ref = { userId: kit.alice.id, username: "alice" };
    for (const label of ["x".repeat(65), "a\nb", 42]) {
      const issued = await kit.service.registrationOptions(ref);
      const response = kit.authenticator.createCredential(issued.options);
      expect(await codeOf(kit.service.verifyRegistration(ref, issued.challengeId, response, label))).toBe(
        "VALIDATION_FAILED",
      );
    }
    expect(await kit.credentials.listByUser(kit.alice.id)).toEqual([]);
  });
});

describe("PasskeyService authentication", () => {
  it("round trip: registers, then signs in with the passkey (username given)", async () => {
    const kit = await passkeyKit();
    const stored = await kit.register();
    const issued = await kit.service.authenticationOptions("ALICE");
    // The username changes nothing in the options: the discoverable passkey names its user.
    expect(issued.options).toMatchObject({
      rpId: "localhost",
      userVerification: "required",
      allowCredentials: [],
    });
    kit.clock.advance(1_000);
    const auth = await kit.service.verifyAuthentication(
      issued.challengeId,
      kit.authenticator.getAssertion(issued.options),
      { remoteAddress: "203.0.113.5", correlationId: "req-77" },
    );
    expect(auth).toEqual({
      userId: kit.alice.id,
      username: "alice",
      authorities: ["ROLE_USER"],
      method: "passkey",
      authenticatedAt: kit.clock.now(),
      factors: [{ type: "hwk", at: kit.clock.now() }],
    });
    expect(Object.isFrozen(auth)).toBe(true);
    expect(await kit.credentials.findById(stored.id)).toMatchObject({
      counter: 1,
      lastUsedAt: kit.clock.now(),
      version: 2,
    });
    expect(kit.audit.events().at(-1)).toMatchObject({
      type: "auth.login.success",
      outcome: "success",
      principal: "alice",
      remoteAddress: "203.0.113.5",
      correlationId: "req-77",
      data: { method: "passkey", userId: kit.alice.id, credentialId: stored.id },
    });
  });

  it("usernameless: empty allowCredentials, the discoverable credential names the user", async () => {
    const kit = await passkeyKit();
    await kit.register(kit.bob);
    const issued = await kit.service.authenticationOptions();
    expect(issued.options.allowCredentials).toEqual([]);
    const auth = await kit.service.verifyAuthentication(
      issued.challengeId,
      kit.authenticator.getAssertion(issued.options),
    );
    expect(auth.username).toBe("bob");
  });

  it("accepts an assertion without a userHandle (non-discoverable use)", async () => {
    const kit = await passkeyKit();
    await kit.register();
    const issued = await kit.service.authenticationOptions("alice");
    const response = kit.authenticator.getAssertion(issued.options, { userHandle: null });
    expect((await kit.service.verifyAuthentication(issued.challengeId, response)).username).toBe("alice");
  });

  it("signs in again and again, the counter moving up", async () => {
    const kit = await passkeyKit();
    const stored = await kit.register();
    for (let i = 1; i <= 3; i++) {
      const issued = await kit.service.authenticationOptions();
      await kit.service.verifyAuthentication(
        issued.challengeId,
        kit.authenticator.getAssertion(issued.options),
      );
      expect((await kit.credentials.findById(stored.id))?.counter).toBe(i);
    }
  });

  it("accepts authenticators that keep no counter (always 0)", async () => {
    const kit = await passkeyKit();
    await kit.register();
    for (let i = 0; i < 2; i++) {
      const issued = await kit.service.authenticationOptions();
      const response = kit.authenticator.getAssertion(issued.options, { counter: 0 });
      expect((await kit.service.verifyAuthentication(issued.challengeId, response)).username).toBe("alice");
    }
  });

  it("answers a user-bound request (MFA factor) with that user's passkeys only", async () => {
    const kit = await passkeyKit();
    const stored = await kit.register();
    await kit.register(kit.bob, new SoftwareAuthenticator(ORIGIN));
    const issued = await kit.service.authenticationOptionsForUser({
      userId: kit.alice.id,
      username: "alice",
    });
    expect(issued.options.allowCredentials).toEqual([
      { id: stored.id, transports: ["internal", "hybrid"], type: "public-key" },
    ]);
    const auth = await kit.service.verifyAuthentication(
      issued.challengeId,
      kit.authenticator.getAssertion(issued.options),
    );
    expect(auth.username).toBe("alice");
  });

  it("refuses a bad username with VALIDATION_FAILED and treats an empty one as none", async () => {
    const kit = await passkeyKit();
    for (const username of [42, "x".repeat(257), " \t", {}]) {
      expect(await codeOf(kit.service.authenticationOptions(username))).toBe("VALIDATION_FAILED");
    }
    expect((await kit.service.authenticationOptions("")).options.allowCredentials).toEqual([]);
    expect((await kit.service.authenticationOptions(null)).options.allowCredentials).toEqual([]);
  });

  it("answers ACCOUNT_LOCKED and ACCOUNT_DISABLED after a valid assertion", async () => {
    const kit = await passkeyKit();
    await kit.register();
    const bobDevice = new SoftwareAuthenticator(ORIGIN);
    await kit.register(kit.bob, bobDevice);
    await kit.users.update({ ...kit.alice, locked: true });
    await kit.users.update({ ...kit.bob, enabled: false });
    const a = await kit.service.authenticationOptions();
    expect(
      await codeOf(
        kit.service.verifyAuthentication(a.challengeId, kit.authenticator.getAssertion(a.options)),
      ),
    ).toBe("ACCOUNT_LOCKED");
    const b = await kit.service.authenticationOptions();
    expect(
      await codeOf(kit.service.verifyAuthentication(b.challengeId, bobDevice.getAssertion(b.options))),
    ).toBe("ACCOUNT_DISABLED");
    expect(kit.audit.events().at(-1)).toMatchObject({
      type: "auth.login.failure",
      data: { method: "passkey", reason: "ACCOUNT_DISABLED" },
    });
  });

  it("accepts any of several allowed origins", async () => {
    const other = "https://app.example.test";
    const kit = await passkeyKit({ allowedOrigins: () => [ORIGIN, other] });
    const ref = { userId: kit.alice.id, username: "alice" };
    const reg = await kit.service.registrationOptions(ref);
    await kit.service.verifyRegistration(
      ref,
      reg.challengeId,
      kit.authenticator.createCredential(reg.options, { origin: other }),
    );
    const issued = await kit.service.authenticationOptions();
    const response = kit.authenticator.getAssertion(issued.options, { origin: other });
    expect((await kit.service.verifyAuthentication(issued.challengeId, response)).username).toBe("alice");
  });

  it("reads the allowed origins at each verification (the port becomes known after listen)", async () => {
    let origins: (string | undefined)[] = [undefined];
    const kit = await passkeyKit({ allowedOrigins: () => origins });
    const ref = { userId: kit.alice.id, username: "alice" };
    const before = await kit.service.registrationOptions(ref);
    expect(
      await codeOf(
        kit.service.verifyRegistration(
          ref,
          before.challengeId,
          kit.authenticator.createCredential(before.options),
        ),
      ),
    ).toBe("CONFIGURATION_INVALID");
    origins = [ORIGIN];
    expect((await kit.register()).userId).toBe(kit.alice.id);
  });
});

describe("PasskeyService management", () => {
  it("lists the user's passkeys and deletes the user's own, the last one too", async () => {
    const kit = await passkeyKit();
    const first = await kit.register(kit.alice, kit.authenticator, "one");
    kit.clock.advance(1);
    const second = await kit.register(kit.alice, new SoftwareAuthenticator(ORIGIN), "two");
    await kit.register(kit.bob, new SoftwareAuthenticator(ORIGIN));
    expect((await kit.service.listCredentials(kit.alice.id)).map((c) => c.label)).toEqual(["one", "two"]);
    const ref = { userId: kit.alice.id, username: "alice" };
    await kit.service.deleteCredential(ref, first.id);
    await kit.service.deleteCredential(ref, second.id);
    expect(await kit.service.listCredentials(kit.alice.id)).toEqual([]);
    expect(kit.audit.events().at(-1)).toMatchObject({ type: "auth.passkey.deleted", principal: "alice" });
    expect(kit.published.at(-1)).toMatchObject({
      type: "passkey.deleted",
      payload: { credentialId: second.id },
    });
  });

  it("answers NOT_FOUND for another user's passkey and for unknown ids, deleting nothing", async () => {
    const kit = await passkeyKit();
    const bobs = await kit.register(kit.bob);
    const ref = { userId: kit.alice.id, username: "alice" };
    expect(await codeOf(kit.service.deleteCredential(ref, bobs.id))).toBe("NOT_FOUND");
    expect(await codeOf(kit.service.deleteCredential(ref, "bm9uZQ"))).toBe("NOT_FOUND");
    expect(await codeOf(kit.service.deleteCredential(ref, ""))).toBe("NOT_FOUND");
    expect(await kit.credentials.findById(bobs.id)).toBeDefined();
  });
});

describe("PasskeyService configuration", () => {
  it("refuses a challenge TTL under a second and empty RP settings", async () => {
    const kit = await passkeyKit();
    const base = {
      allowedOrigins: () => [ORIGIN],
      credentials: kit.credentials,
      challenges: kit.challenges,
      users: kit.users,
      clock: kit.clock,
      ids: kit.ids,
      audit: kit.audit,
      events: kit.events,
    };
    expect(() => new PasskeyService({ ...base, challengeTtlMs: 10 })).toThrow(/TTL/);
    expect(() => new PasskeyService({ ...base, rpId: " " })).toThrow(/rpId/);
    expect(new PasskeyService({ ...base, rpName: "Acme", rpId: "example.test" })).toMatchObject({
      rpName: "Acme",
      rpId: "example.test",
      challengeTtlMs: 300_000,
    });
  });
});
