import { generateKeyPairSync } from "node:crypto";
import { calculateJwkThumbprint, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { BASE64URL_SECRET_PREFIX, loadJwtKeys } from "./jwt-keys.js";
import { RecordingLogger, rejectionCode } from "./token-service.test-support.js";

function ecPems(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

function edPems(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return {
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

describe("loadJwtKeys", () => {
  it("generates an ES256 key by default, warns once, and publishes the public JWK with its thumbprint kid", async () => {
    const logger = new RecordingLogger();
    const keys = await loadJwtKeys({ logger });
    expect(keys).toMatchObject({ algorithm: "ES256", generated: true });
    const jwk = keys.publicJwk();
    expect(jwk).toEqual({
      kty: "EC",
      crv: "P-256",
      x: expect.any(String),
      y: expect.any(String),
      kid: keys.kid,
      alg: "ES256",
      use: "sig",
    });
    expect(keys.kid).toBe(await calculateJwkThumbprint({ kty: "EC", crv: "P-256", x: jwk?.x, y: jwk?.y }));
    expect(logger.lines).toEqual([
      {
        level: "warn",
        message: expect.stringMatching(/will not survive a restart/),
        fields: { algorithm: "ES256", kid: keys.kid },
      },
    ]);
    expect(keys.signingKey).toMatchObject({ extractable: false, type: "private" });
  });

  it("loads a PKCS#8 P-256 key, derives the public key, and gives the same kid every time", async () => {
    const { privateKeyPem, publicKeyPem } = ecPems();
    const logger = new RecordingLogger();
    const derived = await loadJwtKeys({ algorithm: "ES256", privateKeyPem, logger });
    const both = await loadJwtKeys({ algorithm: "ES256", privateKeyPem, publicKeyPem, logger });
    expect(derived.generated).toBe(false);
    expect(derived.kid).toBe(both.kid);
    expect(derived.publicJwk()).toEqual(both.publicJwk());
    expect(logger.lines).toEqual([]);
    const token = await new SignJWT({}).setProtectedHeader({ alg: "ES256" }).sign(derived.signingKey);
    expect(token.split(".")).toHaveLength(3);
  });

  it("returns a copy of the public JWK", async () => {
    const keys = await loadJwtKeys({ logger: new RecordingLogger() });
    const jwk = keys.publicJwk()!;
    jwk.x = "tampered";
    expect(keys.publicJwk()?.x).not.toBe("tampered");
  });

  it("loads and generates Ed25519 keys for EdDSA", async () => {
    const { privateKeyPem, publicKeyPem } = edPems();
    const loaded = await loadJwtKeys({
      algorithm: "EdDSA",
      privateKeyPem,
      publicKeyPem,
      logger: new RecordingLogger(),
    });
    expect(loaded.publicJwk()).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", kid: loaded.kid });
    const generated = await loadJwtKeys({ algorithm: "EdDSA", logger: new RecordingLogger() });
    expect(generated).toMatchObject({ algorithm: "EdDSA", generated: true });
  });

  it("takes an HS256 secret as UTF-8 or base64url, with a stable kid and no public JWK", async () => {
    const logger = new RecordingLogger();
    const text = "correct horse battery staple 32b!";
    const a = await loadJwtKeys({ algorithm: "HS256", secret: text, logger });
    const b = await loadJwtKeys({
      algorithm: "HS256",
      secret: BASE64URL_SECRET_PREFIX + Buffer.from(text).toString("base64url"),
      logger,
    });
    expect(a.kid).toBe(b.kid);
    expect(a.kid).not.toContain(Buffer.from(text).toString("base64url").slice(0, 8));
    expect(a.publicJwk()).toBeUndefined();
    expect(a.generated).toBe(false);
    const other = await loadJwtKeys({ algorithm: "HS256", secret: `${text}?`, logger });
    expect(other.kid).not.toBe(a.kid);
    expect(logger.lines).toEqual([]);
  });

  it("generates an HS256 secret when none is configured, and warns", async () => {
    const logger = new RecordingLogger();
    const keys = await loadJwtKeys({ algorithm: "HS256", secret: "", logger });
    expect(keys.generated).toBe(true);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]?.message).toMatch(/platform\.auth\.jwt\.secret/);
  });

  it("refuses configurations that cannot be right with CONFIGURATION_INVALID", async () => {
    const logger = new RecordingLogger();
    const ec = ecPems();
    const ec2 = ecPems();
    const ed = edPems();
    const cases = {
      "unknown algorithm": { algorithm: "RS256" as never },
      "alg none": { algorithm: "none" as never },
      "public without private": { publicKeyPem: ec.publicKeyPem },
      "mismatched public key": { privateKeyPem: ec.privateKeyPem, publicKeyPem: ec2.publicKeyPem },
      "Ed25519 key for ES256": { privateKeyPem: ed.privateKeyPem },
      "P-256 key for EdDSA": { algorithm: "EdDSA" as const, privateKeyPem: ec.privateKeyPem },
      "public PEM as private": { privateKeyPem: ec.publicKeyPem },
      "garbage PEM": { privateKeyPem: "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----" },
      "garbage public PEM": { privateKeyPem: ec.privateKeyPem, publicKeyPem: "nope" },
      "secret with ES256": { secret: "x".repeat(40) },
      "PEM with HS256": { algorithm: "HS256" as const, privateKeyPem: ec.privateKeyPem },
      "bad base64url": {
        algorithm: "HS256" as const,
        secret: `${BASE64URL_SECRET_PREFIX}${"a+/=".repeat(20)}`,
      },
    };
    for (const [label, options] of Object.entries(cases)) {
      const error = await loadJwtKeys({ logger, ...options }).catch((e: unknown) => e);
      expect(await rejectionCode(Promise.reject(error)), label).toBe("CONFIGURATION_INVALID");
      expect((error as Error).message, label).not.toContain("BEGIN");
      expect((error as Error).message, label).not.toContain(ec.privateKeyPem.split("\n")[1]);
    }
    expect(logger.lines).toEqual([]);
  });
});
