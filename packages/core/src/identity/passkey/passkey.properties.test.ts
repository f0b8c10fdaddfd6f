import { describe, expect, it } from "vitest";
import { resolveProperties } from "../../kernel/properties.js";
import {
  PASSKEY_CHALLENGE_TTL,
  PASSKEY_PROPERTIES,
  passkeyOptionsFromProperties,
} from "./passkey.properties.js";

describe("passkey properties", () => {
  it("defaults the challenge TTL to 5 minutes", () => {
    const properties = resolveProperties(PASSKEY_PROPERTIES, { env: {} });
    expect(properties.get(PASSKEY_CHALLENGE_TTL)).toBe(300_000);
    expect(passkeyOptionsFromProperties(properties)).toEqual({ challengeTtlMs: 300_000 });
  });

  it("reads durations from code and environment", () => {
    expect(
      resolveProperties(PASSKEY_PROPERTIES, {
        code: { "platform.auth.passkey.challenge-ttl": "PT2M" },
        env: {},
      }).get(PASSKEY_CHALLENGE_TTL),
    ).toBe(120_000);
    expect(
      resolveProperties(PASSKEY_PROPERTIES, { env: { PLATFORM_AUTH_PASSKEY_CHALLENGE_TTL: "90s" } }).get(
        PASSKEY_CHALLENGE_TTL,
      ),
    ).toBe(90_000);
  });

  it("refuses a TTL under 10 seconds or over an hour", () => {
    for (const value of ["5s", "2h", "soon"]) {
      expect(() =>
        resolveProperties(PASSKEY_PROPERTIES, {
          code: { "platform.auth.passkey.challenge-ttl": value },
          env: {},
        }),
      ).toThrow(/challenge-ttl/);
    }
  });
});
