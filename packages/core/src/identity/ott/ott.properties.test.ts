import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { resolveProperties } from "../../kernel/properties.js";
import { OTT_PROPERTIES, ottSettingsFromProperties } from "./ott.properties.js";

describe("one-time-token properties", () => {
  it("default to a 5-minute token, the outbox file, 3 per user and 20 per address per 15 minutes", () => {
    expect(ottSettingsFromProperties(resolveProperties(OTT_PROPERTIES, { env: {} }))).toEqual({
      tokenTtlMs: 300_000,
      outboxFile: ".platform/outbox.jsonl",
      delivery: "outbox",
      maxPerUser: 3,
      maxPerIp: 20,
      windowMs: 900_000,
    });
  });

  it("read the environment and code", () => {
    const properties = resolveProperties(OTT_PROPERTIES, {
      env: {
        PLATFORM_AUTH_OTT_TOKEN_TTL: "PT10M",
        PLATFORM_AUTH_OTT_DELIVERY: "console",
        PLATFORM_AUTH_OTT_MAX_PER_IP: "100",
        PLATFORM_AUTH_OTT_RATE_WINDOW: "1h",
      },
      code: { "platform.auth.ott.outbox-file": "/tmp/mail.jsonl", "platform.auth.ott.max-per-user": 5 },
    });
    expect(ottSettingsFromProperties(properties)).toEqual({
      tokenTtlMs: 600_000,
      outboxFile: "/tmp/mail.jsonl",
      delivery: "console",
      maxPerUser: 5,
      maxPerIp: 100,
      windowMs: 3_600_000,
    });
  });

  it("refuse values outside their ranges with PROPERTY_INVALID", () => {
    const bad = {
      "platform.auth.ott.token-ttl": ["5s", "25h", "soon", 0],
      "platform.auth.ott.outbox-file": ["", 3],
      "platform.auth.ott.delivery": ["sendmail", "", "SMTP"],
      "platform.auth.ott.max-per-user": [0, 1001, "2.5"],
      "platform.auth.ott.max-per-ip": [0, 100_001],
      "platform.auth.ott.rate-window": ["500ms", "8d", "P1M"],
    };
    for (const [key, values] of Object.entries(bad)) {
      for (const value of values) {
        let code = "accepted";
        try {
          resolveProperties(OTT_PROPERTIES, { env: {}, code: { [key]: value } });
        } catch (error) {
          code = isPlatformError(error) ? error.code : String(error);
        }
        expect(code, `${key}=${value}`).toBe("PROPERTY_INVALID");
      }
    }
  });
});
