import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { resolveProperties } from "../../kernel/properties.js";
import { loadJwtKeys } from "./jwt-keys.js";
import { JWT_PROPERTIES, jwtOptionsFromProperties } from "./jwt-properties.js";
import { createTokenServiceFixture, RecordingLogger, rejectionCode } from "./token-service.test-support.js";

describe("JWT properties", () => {
  it("defaults: ES256 with a generated key, platform / platform-api, 15 min, 7 days, 30 s", () => {
    const options = jwtOptionsFromProperties(resolveProperties(JWT_PROPERTIES, { env: {} }));
    expect(options).toEqual({
      algorithm: "ES256",
      privateKeyPem: undefined,
      publicKeyPem: undefined,
      secret: undefined,
      issuer: "platform",
      audience: "platform-api",
      accessTokenTtlMs: 15 * 60_000,
      refreshTokenTtlMs: 7 * 86_400_000,
      clockSkewMs: 30_000,
      keyRotationMs: 0,
    });
  });

  it("reads the environment, durations in ISO-8601 or short form, PEM with \\n escapes", async () => {
    const { privateKey } = generateKeyPairSync("ed25519");
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const properties = resolveProperties(JWT_PROPERTIES, {
      env: {
        PLATFORM_AUTH_JWT_ALGORITHM: "EdDSA",
        PLATFORM_AUTH_JWT_PRIVATE_KEY: pem.replace(/\n/g, "\\n"),
        PLATFORM_AUTH_JWT_ISSUER: "https://id.example",
        PLATFORM_AUTH_JWT_AUDIENCE: "orders",
        PLATFORM_AUTH_JWT_ACCESS_TOKEN_TTL: "PT5M",
        PLATFORM_AUTH_JWT_REFRESH_TOKEN_TTL: "30d",
        PLATFORM_AUTH_JWT_CLOCK_SKEW: "0",
        PLATFORM_AUTH_JWT_KEY_ROTATION: "30d",
      },
    });
    const options = jwtOptionsFromProperties(properties);
    expect(options).toMatchObject({
      algorithm: "EdDSA",
      privateKeyPem: pem.trim(),
      issuer: "https://id.example",
      audience: "orders",
      accessTokenTtlMs: 300_000,
      refreshTokenTtlMs: 30 * 86_400_000,
      clockSkewMs: 0,
      keyRotationMs: 30 * 86_400_000,
    });
    const keys = await loadJwtKeys({ ...options, logger: new RecordingLogger() });
    const { service, alice } = await createTokenServiceFixture({ keys, clock: new ManualClock() });
    await expect(service.authenticate((await service.issue(alice)).accessToken)).resolves.toMatchObject({
      username: "alice",
    });
  });

  it("stops start-up on a bad value with PROPERTY_INVALID", async () => {
    const bad: Record<string, unknown>[] = [
      { "platform.auth.jwt.algorithm": "RS256" },
      { "platform.auth.jwt.algorithm": "none" },
      { "platform.auth.jwt.access-token-ttl": "0s" },
      { "platform.auth.jwt.access-token-ttl": "2d" },
      { "platform.auth.jwt.refresh-token-ttl": "soon" },
      { "platform.auth.jwt.clock-skew": "10m" },
      { "platform.auth.jwt.issuer": "" },
      { "platform.auth.jwt.private-key": 42 },
      { "platform.auth.jwt.key-rotation": "30s" },
      { "platform.auth.jwt.key-rotation": "400d" },
    ];
    for (const code of bad) {
      expect(await rejectionCode((async () => resolveProperties(JWT_PROPERTIES, { env: {}, code }))())).toBe(
        "PROPERTY_INVALID",
      );
    }
  });
});
