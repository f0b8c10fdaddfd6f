import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { resolveProperties } from "../../kernel/properties.js";
import { PASSWORD_HASHER_PROPERTIES, scryptOptionsFromProperties } from "./password-hasher.properties.js";

describe("password hasher properties", () => {
  it("default to N=2^15, r=8, p=1", () => {
    const properties = resolveProperties(PASSWORD_HASHER_PROPERTIES, { env: {} });
    expect(scryptOptionsFromProperties(properties)).toEqual({
      costLog2: 15,
      blockSize: 8,
      parallelization: 1,
    });
  });

  it("read the environment and code", () => {
    const properties = resolveProperties(PASSWORD_HASHER_PROPERTIES, {
      env: { PLATFORM_AUTH_PASSWORD_SCRYPT_COST_LOG2: "17" },
      code: { "platform.auth.password.scrypt.parallelization": 2 },
    });
    expect(scryptOptionsFromProperties(properties)).toEqual({
      costLog2: 17,
      blockSize: 8,
      parallelization: 2,
    });
  });

  it("refuse values outside their ranges with PROPERTY_INVALID", () => {
    const bad = {
      "platform.auth.password.scrypt.cost-log2": [9, 21, "15.5"],
      "platform.auth.password.scrypt.block-size": [0, 33],
      "platform.auth.password.scrypt.parallelization": [0, 17],
    };
    for (const [key, values] of Object.entries(bad)) {
      for (const value of values) {
        let code = "accepted";
        try {
          resolveProperties(PASSWORD_HASHER_PROPERTIES, { env: {}, code: { [key]: value } });
        } catch (error) {
          code = isPlatformError(error) ? error.code : String(error);
        }
        expect(code, `${key}=${value}`).toBe("PROPERTY_INVALID");
      }
    }
  });

  it("refuse a cost below 14 without allow-low-cost (CONFIGURATION_INVALID), accept it down to 10 with it", () => {
    const low = (code: Record<string, unknown>) =>
      scryptOptionsFromProperties(resolveProperties(PASSWORD_HASHER_PROPERTIES, { env: {}, code }));
    let code = "accepted";
    try {
      low({ "platform.auth.password.scrypt.cost-log2": 13 });
    } catch (error) {
      code = isPlatformError(error) ? error.code : String(error);
    }
    expect(code).toBe("CONFIGURATION_INVALID");
    expect(
      low({
        "platform.auth.password.scrypt.cost-log2": 10,
        "platform.auth.password.scrypt.allow-low-cost": true,
      }).costLog2,
    ).toBe(10);
  });
});
