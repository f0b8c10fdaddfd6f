import { describe, expect, it } from "vitest";
import { isPlatformError } from "../kernel/platform-error.js";
import { resolveProperties } from "../kernel/properties.js";
import { MFA_PROPERTIES, MFA_SETTINGS_DEFAULTS, mfaSettingsFromProperties } from "./mfa.properties.js";

describe("MFA properties", () => {
  it("default to the documented values", () => {
    const settings = mfaSettingsFromProperties(resolveProperties(MFA_PROPERTIES, { env: {} }));
    expect(settings).toEqual({
      sessionTimeoutMs: 600_000,
      challengeTimeoutMs: 300_000,
      maxRetryAttempts: 5,
      accountLockoutDurationMs: 900_000,
      otpTokenValiditySeconds: 300,
      otpTokenLength: 6,
      minimumRejectionDelayMs: 500,
      requiredAuthorities: ["ROLE_ADMIN"],
      repository: "memory",
      passkeySatisfiesMfa: false,
    });
    expect(settings).toEqual(MFA_SETTINGS_DEFAULTS);
  });

  it("read the environment and code", () => {
    const properties = resolveProperties(MFA_PROPERTIES, {
      env: {
        PLATFORM_AUTH_MFA_SESSIONTIMEOUTMS: "PT20M",
        PLATFORM_AUTH_MFA_MAXRETRYATTEMPTS: "3",
        PLATFORM_AUTH_MFA_REQUIREDAUTHORITIES: " ROLE_ADMIN, ROLE_OPS ,,ROLE_ADMIN",
        PLATFORM_AUTH_MFA_PASSKEYSATISFIESMFA: "false",
        PLATFORM_AUTH_MFA_MINIMUMREJECTIONDELAYMS: "0",
      },
      code: {
        "platform.auth.mfa.challengeTimeoutMs": "2m",
        "platform.auth.mfa.accountLockoutDurationMs": 60_000,
        "platform.auth.mfa.otpTokenValiditySeconds": 120,
        "platform.auth.mfa.otpTokenLength": 8,
        "platform.auth.mfa.repository": "memory",
      },
    });
    expect(mfaSettingsFromProperties(properties)).toEqual({
      sessionTimeoutMs: 1_200_000,
      challengeTimeoutMs: 120_000,
      maxRetryAttempts: 3,
      accountLockoutDurationMs: 60_000,
      otpTokenValiditySeconds: 120,
      otpTokenLength: 8,
      minimumRejectionDelayMs: 0,
      requiredAuthorities: ["ROLE_ADMIN", "ROLE_OPS"],
      repository: "memory",
      passkeySatisfiesMfa: false,
    });
  });

  it("accept an empty authority list (nobody is challenged by the default policy) and arrays from code", () => {
    const empty = resolveProperties(MFA_PROPERTIES, { env: { PLATFORM_AUTH_MFA_REQUIREDAUTHORITIES: "" } });
    expect(mfaSettingsFromProperties(empty).requiredAuthorities).toEqual([]);
    const array = resolveProperties(MFA_PROPERTIES, {
      env: {},
      code: { "platform.auth.mfa.requiredAuthorities": ["ROLE_A", "ROLE_B"] },
    });
    expect(mfaSettingsFromProperties(array).requiredAuthorities).toEqual(["ROLE_A", "ROLE_B"]);
  });

  it("refuse values outside their ranges with PROPERTY_INVALID", () => {
    const bad = {
      "platform.auth.mfa.sessionTimeoutMs": ["30s", "25h", "soon", -1],
      "platform.auth.mfa.challengeTimeoutMs": ["10s", "2h", "P1M"],
      "platform.auth.mfa.maxRetryAttempts": [0, 21, "2.5", "many"],
      "platform.auth.mfa.accountLockoutDurationMs": ["500ms", "8d", "forever"],
      "platform.auth.mfa.otpTokenValiditySeconds": [29, 3601, "5m"],
      "platform.auth.mfa.otpTokenLength": [3, 13, "six"],
      "platform.auth.mfa.minimumRejectionDelayMs": ["6s", "slow", -5],
      "platform.auth.mfa.requiredAuthorities": ["ROLE ADMIN", "ROLE_<script>", 7, ["ok", 3], ["a b"]],
      "platform.auth.mfa.repository": ["redis", "", "MEMORY"],
      "platform.auth.mfa.passkeySatisfiesMfa": ["yes", 1, ""],
    };
    for (const [key, values] of Object.entries(bad)) {
      for (const value of values) {
        let code = "accepted";
        try {
          resolveProperties(MFA_PROPERTIES, { env: {}, code: { [key]: value } });
        } catch (error) {
          code = isPlatformError(error) ? error.code : String(error);
        }
        expect(code, `${key}=${JSON.stringify(value)}`).toBe("PROPERTY_INVALID");
      }
    }
  });
});
