import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { resolveProperties } from "../../kernel/properties.js";
import { THROTTLE_PROPERTIES, throttleOptionsFromProperties } from "./login-throttle.properties.js";

describe("login throttle properties", () => {
  it("default to 5 per (account, address), 50 per address, 15 minutes", () => {
    const properties = resolveProperties(THROTTLE_PROPERTIES, { env: {} });
    expect(throttleOptionsFromProperties(properties)).toEqual({
      maxFailuresPerAccountAndIp: 5,
      maxFailuresPerIp: 50,
      windowMs: 900_000,
    });
  });

  it("read the environment and code, durations in ISO-8601 or short form", () => {
    const properties = resolveProperties(THROTTLE_PROPERTIES, {
      env: { PLATFORM_AUTH_THROTTLE_MAX_FAILURES_PER_IP: "200", PLATFORM_AUTH_THROTTLE_WINDOW: "PT5M" },
      code: { "platform.auth.throttle.max-failures-per-account-and-ip": 10 },
    });
    expect(throttleOptionsFromProperties(properties)).toEqual({
      maxFailuresPerAccountAndIp: 10,
      maxFailuresPerIp: 200,
      windowMs: 300_000,
    });
    const short = resolveProperties(THROTTLE_PROPERTIES, { env: { PLATFORM_AUTH_THROTTLE_WINDOW: "1h" } });
    expect(throttleOptionsFromProperties(short).windowMs).toBe(3_600_000);
  });

  it("refuse values outside their ranges with PROPERTY_INVALID", () => {
    const bad = {
      "platform.auth.throttle.max-failures-per-account-and-ip": [0, 1001, "5.5", "five"],
      "platform.auth.throttle.max-failures-per-ip": [0, 100_001],
      "platform.auth.throttle.window": ["0", "500ms", "8d", "P1M", "soon", -1],
    };
    for (const [key, values] of Object.entries(bad)) {
      for (const value of values) {
        let code = "accepted";
        try {
          resolveProperties(THROTTLE_PROPERTIES, { env: {}, code: { [key]: value } });
        } catch (error) {
          code = isPlatformError(error) ? error.code : String(error);
        }
        expect(code, `${key}=${value}`).toBe("PROPERTY_INVALID");
      }
    }
  });
});
