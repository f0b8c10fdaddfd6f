import { randomBytes } from "node:crypto";
import { base64url, type CryptoKey, decodeJwt, exportSPKI, importJWK, type JWTPayload, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { loadJwtKeys } from "./jwt-keys.js";
import { createTokenServiceFixture, RecordingLogger, rejectionCode } from "./token-service.test-support.js";

const enc = (value: unknown): string => base64url.encode(JSON.stringify(value));

/** Valid claims for `fixture`'s service at the fixture clock's time. */
function validClaims(now: number): JWTPayload {
  const iat = Math.floor(now / 1000);
  return {
    iss: "platform",
    aud: "platform-api",
    sub: "user-alice",
    preferred_username: "alice",
    authorities: ["ROLE_USER"],
    auth_time: iat - 5,
    amr: ["pwd"],
    auth_method: "rest",
    jti: "forged-jti",
    sid: "forged-family",
    iat,
    exp: iat + 900,
  };
}

/** Signs claims with the given key material, header fields overridable (undefined deletes one). */
async function sign(
  keys: { algorithm: string; kid: string; signingKey: CryptoKey | Uint8Array },
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  const protectedHeader = Object.fromEntries(
    Object.entries({ alg: keys.algorithm, kid: keys.kid, typ: "at+jwt", ...header }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  const payload = Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined));
  return new SignJWT(payload).setProtectedHeader(protectedHeader as { alg: string }).sign(keys.signingKey);
}

/** Asserts the one generic refusal: PlatformError INVALID_TOKEN, the fixed message, never another type. */
async function expectInvalid(promise: Promise<unknown>, label?: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isPlatformError(error), label).toBe(true);
  expect(isPlatformError(error) && { code: error.code, message: error.message }, label).toEqual({
    code: "INVALID_TOKEN",
    message: "Invalid access token",
  });
}

describe("TokenService security", () => {
  it("accepts the forging helper's baseline token (so each refusal below is about one change)", async () => {
    const { service, keys, clock } = await createTokenServiceFixture();
    await expect(service.authenticate(await sign(keys, validClaims(clock.now())))).resolves.toMatchObject({
      tokenId: "forged-jti",
    });
  });

  it("refuses alg none, however it is spelled and whatever follows the last dot", async () => {
    const { service, keys, clock } = await createTokenServiceFixture();
    const payload = enc(validClaims(clock.now()));
    for (const alg of ["none", "None", "NONE", "nOnE"]) {
      const header = enc({ alg, kid: keys.kid, typ: "at+jwt" });
      await expectInvalid(service.authenticate(`${header}.${payload}.`), alg);
      await expectInvalid(service.authenticate(`${header}.${payload}`), `${alg} two parts`);
      await expectInvalid(
        service.authenticate(`${header}.${payload}.${base64url.encode("sig")}`),
        `${alg} sig`,
      );
    }
  });

  it("refuses algorithm confusion: HS256 keyed with the ES256 public key's PEM, JWK or raw coordinates", async () => {
    const { service, keys, clock } = await createTokenServiceFixture();
    const jwk = keys.publicJwk()!;
    const publicPem = await exportSPKI((await importJWK(jwk, "ES256", { extractable: true })) as CryptoKey);
    const secrets = [
      new TextEncoder().encode(publicPem),
      new TextEncoder().encode(publicPem.trim()),
      new TextEncoder().encode(JSON.stringify(jwk)),
      base64url.decode(jwk.x!),
    ];
    for (const [i, secret] of secrets.entries()) {
      const token = await sign(
        { algorithm: "HS256", kid: keys.kid, signingKey: secret },
        validClaims(clock.now()),
      );
      const error = await service.authenticate(token).catch((e: unknown) => e);
      expect(isPlatformError(error) && error.code, `secret ${i}`).toBe("INVALID_TOKEN");
      expect((error as Error).cause, `secret ${i}`).toMatchObject({ code: "ERR_JOSE_ALG_NOT_ALLOWED" });
    }
  });

  it("refuses an ES256 token where HS256 is pinned, even with the right kid", async () => {
    const { service, keys, clock } = await createTokenServiceFixture({ algorithm: "HS256" });
    const attacker = await loadJwtKeys({ algorithm: "ES256", logger: new RecordingLogger() });
    await expectInvalid(
      service.authenticate(await sign({ ...attacker, kid: keys.kid }, validClaims(clock.now()))),
    );
  });

  it("refuses a tampered payload, header or signature", async () => {
    const { service, alice } = await createTokenServiceFixture();
    const { accessToken } = await service.issue(alice);
    const [header, payload, signature] = accessToken.split(".") as [string, string, string];
    const claims = decodeJwt(accessToken);
    for (const [label, changed] of [
      ["authorities", { ...claims, authorities: ["ROLE_USER", "ROLE_ADMIN"] }],
      ["sub", { ...claims, sub: "user-admin" }],
      ["exp", { ...claims, exp: (claims.exp ?? 0) + 86_400 }],
    ] as const) {
      await expectInvalid(service.authenticate(`${header}.${enc(changed)}.${signature}`), label);
    }
    await expectInvalid(
      service.authenticate(`${enc({ alg: "ES256", typ: "at+jwt", kid: "x" })}.${payload}.${signature}`),
    );
    const flipped = signature.slice(0, 10) + (signature[10] === "A" ? "B" : "A") + signature.slice(11);
    await expectInvalid(service.authenticate(`${header}.${payload}.${flipped}`));
    await expectInvalid(service.authenticate(`${header}.${payload}.`));
  });

  it("refuses a token from another key, with its own kid or ours", async () => {
    const { service, keys, clock } = await createTokenServiceFixture();
    const other = await loadJwtKeys({ algorithm: "ES256", logger: new RecordingLogger() });
    await expectInvalid(service.authenticate(await sign(other, validClaims(clock.now()))), "own kid");
    await expectInvalid(
      service.authenticate(await sign({ ...other, kid: keys.kid }, validClaims(clock.now()))),
      "our kid",
    );
  });

  it("says INVALID_TOKEN, not TOKEN_EXPIRED, for an expired token it did not sign", async () => {
    const { service, keys, clock } = await createTokenServiceFixture();
    const other = await loadJwtKeys({ algorithm: "ES256", logger: new RecordingLogger() });
    const expired = { ...validClaims(clock.now() - 86_400_000) };
    await expectInvalid(service.authenticate(await sign({ ...other, kid: keys.kid }, expired)));
    expect(await rejectionCode(service.authenticate(await sign(keys, expired)))).toBe("TOKEN_EXPIRED");
  });

  it("refuses a wrong issuer, audience, typ or kid, and missing or ill-typed claims", async () => {
    const { service, keys, clock } = await createTokenServiceFixture();
    const base = validClaims(clock.now());
    const claimCases: [string, Record<string, unknown>][] = [
      ["issuer", { iss: "someone-else" }],
      ["audience", { aud: "another-api" }],
      ["audience list", { aud: ["another-api"] }],
      ["no exp", { exp: undefined }],
      ["no iss", { iss: undefined }],
      ["no aud", { aud: undefined }],
      ["no sub", { sub: undefined }],
      ["empty sub", { sub: "" }],
      ["no jti", { jti: undefined }],
      // Without its sign-in a token could not be refused when the sign-in is revoked.
      ["no sid", { sid: undefined }],
      ["empty sid", { sid: "" }],
      ["numeric sid", { sid: 7 }],
      ["no iat", { iat: undefined }],
      ["no username", { preferred_username: undefined }],
      ["no authorities", { authorities: undefined }],
      ["authorities as a string", { authorities: "ROLE_ADMIN" }],
      ["no amr", { amr: undefined }],
      ["unknown amr", { amr: ["face"] }],
      ["no auth_time", { auth_time: undefined }],
      ["no auth_method", { auth_method: undefined }],
      ["bearer auth_method", { auth_method: "bearer" }],
      ["fractional exp", { exp: (base.exp ?? 0) + 0.5 }],
    ];
    for (const [label, change] of claimCases) {
      await expectInvalid(service.authenticate(await sign(keys, { ...base, ...change })), label);
    }
    const headerCases: [string, Record<string, unknown>][] = [
      ["typ JWT", { typ: "JWT" }],
      ["typ id_token", { typ: "application/jwt" }],
      ["no typ", { typ: undefined }],
      ["no kid", { kid: undefined }],
      ["other kid", { kid: "another-key" }],
    ];
    for (const [label, header] of headerCases) {
      await expectInvalid(service.authenticate(await sign(keys, base, header)), label);
    }
  });

  it("refuses garbage with INVALID_TOKEN and never throws anything else", async () => {
    const { service } = await createTokenServiceFixture();
    const junk = randomBytes(7_500).toString("base64");
    const inputs: unknown[] = [
      "",
      " ",
      "abc",
      ".",
      "..",
      "...",
      "a.b.c",
      "a.b.c.d.e",
      "Bearer abc",
      "eyJ.eyJ.eyJ",
      `${enc({ alg: "ES256" })}..`,
      `${enc("not an object")}.${enc([])}.`,
      `${base64url.encode("{")}.${base64url.encode("{")}.AAAA`,
      "\u0000\u0001.\uD800.\uFFFF",
      junk,
      `${junk.slice(0, 3000)}.${junk.slice(3000, 6000)}.${junk.slice(6000)}`,
      "x".repeat(10 * 1024),
      ".".repeat(10 * 1024),
      undefined,
      null,
      42,
      {},
    ];
    for (const [i, input] of inputs.entries()) {
      await expectInvalid(service.authenticate(input as string), `input ${i}`);
    }
  });

  it("refuses a refresh token presented as an access token, and the other way round", async () => {
    const { service, alice } = await createTokenServiceFixture();
    const pair = await service.issue(alice);
    await expectInvalid(service.authenticate(pair.refreshToken));
    expect(await rejectionCode(service.refresh(pair.accessToken))).toBe("INVALID_TOKEN");
    for (const junk of ["", "x".repeat(10 * 1024), undefined, null]) {
      expect(await rejectionCode(service.refresh(junk as string))).toBe("INVALID_TOKEN");
    }
    // Neither mistake consumed anything: both tokens still work.
    await expect(service.authenticate(pair.accessToken)).resolves.toMatchObject({ username: "alice" });
    await expect(service.refresh(pair.refreshToken)).resolves.toMatchObject({ tokenType: "Bearer" });
  });

  it("refuses a token of another platform (same algorithm, different generated key)", async () => {
    const one = await createTokenServiceFixture();
    const two = await createTokenServiceFixture();
    const pair = await one.service.issue(one.alice);
    await expectInvalid(two.service.authenticate(pair.accessToken));
    expect(await rejectionCode(two.service.refresh(pair.refreshToken))).toBe("INVALID_TOKEN");
  });
});
