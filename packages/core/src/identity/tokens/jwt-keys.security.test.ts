import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { BASE64URL_SECRET_PREFIX, loadJwtKeys } from "./jwt-keys.js";
import { RecordingLogger, rejectionCode } from "./token-service.test-support.js";

describe("JWT key configuration security", () => {
  it("refuses an HS256 secret shorter than 32 bytes, as text or base64url", async () => {
    const logger = new RecordingLogger();
    const short = [
      "a".repeat(31),
      "hunter2",
      "ü".repeat(15), // 30 bytes in UTF-8
      BASE64URL_SECRET_PREFIX + Buffer.alloc(31, 7).toString("base64url"),
      // Counted after decoding: 42 base64url characters are 31 bytes.
      BASE64URL_SECRET_PREFIX + Buffer.alloc(32, 7).toString("base64url").slice(0, 42),
    ];
    for (const secret of short) {
      const error = await loadJwtKeys({ algorithm: "HS256", secret, logger }).catch((e: unknown) => e);
      expect(await rejectionCode(Promise.reject(error)), secret).toBe("CONFIGURATION_INVALID");
      expect((error as Error).message).toMatch(/at least 32 bytes/);
      expect((error as Error).message).not.toContain(secret);
    }
    await expect(loadJwtKeys({ algorithm: "HS256", secret: "a".repeat(32), logger })).resolves.toMatchObject({
      algorithm: "HS256",
    });
    await expect(
      loadJwtKeys({
        algorithm: "HS256",
        secret: BASE64URL_SECRET_PREFIX + Buffer.alloc(32, 7).toString("base64url"),
        logger,
      }),
    ).resolves.toMatchObject({ algorithm: "HS256" });
  });

  it("never logs key material when it generates a key", async () => {
    for (const algorithm of ["ES256", "EdDSA", "HS256"] as const) {
      const logger = new RecordingLogger();
      const keys = await loadJwtKeys({ algorithm, logger });
      const logged = JSON.stringify(logger.lines);
      expect(Object.keys(logger.lines[0]?.fields ?? {}).sort()).toEqual(["algorithm", "kid"]);
      expect(logged).not.toMatch(/BEGIN|"d"|"k"/);
      const jwk = keys.publicJwk();
      if (jwk?.x) expect(logged).not.toContain(jwk.x);
    }
  });

  it("keeps a configured private key non-extractable", async () => {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const privateKeyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const keys = await loadJwtKeys({ privateKeyPem, logger: new RecordingLogger() });
    expect(keys.signingKey).toMatchObject({ extractable: false });
    expect(keys.publicJwk()).not.toHaveProperty("d");
  });
});
