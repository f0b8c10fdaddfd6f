import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { resolveProperties } from "../../kernel/properties.js";
import {
  SESSION_COOKIE_NAME,
  SESSION_PROPERTIES,
  SESSION_TIMEOUT,
  sessionOptionsFromProperties,
} from "./session.properties.js";

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return isPlatformError(e) ? e.code : "other";
  }
  return "none";
}

describe("session properties", () => {
  it("default to a 30 minute timeout, a 12 hour lifetime and the PLATFORM_SESSION cookie", () => {
    const props = resolveProperties(SESSION_PROPERTIES, { env: {} });
    expect(props.get(SESSION_TIMEOUT)).toBe(30 * 60_000);
    expect(props.get(SESSION_COOKIE_NAME)).toBe("PLATFORM_SESSION");
    expect(sessionOptionsFromProperties(props)).toEqual({
      idleTimeoutMs: 30 * 60_000,
      maxLifetimeMs: 12 * 60 * 60_000,
      cookieName: "PLATFORM_SESSION",
    });
  });

  it("read durations in ISO and short forms, from code and environment", () => {
    expect(
      resolveProperties(SESSION_PROPERTIES, { env: {}, code: { "platform.session.timeout": "PT15M" } }).get(
        SESSION_TIMEOUT,
      ),
    ).toBe(15 * 60_000);
    const env = { PLATFORM_SESSION_TIMEOUT: "2h", PLATFORM_SESSION_COOKIE_NAME: "__Host-SID" };
    const props = resolveProperties(SESSION_PROPERTIES, { env });
    expect(props.get(SESSION_TIMEOUT)).toBe(2 * 3_600_000);
    expect(props.get(SESSION_COOKIE_NAME)).toBe("__Host-SID");
  });

  it("refuse a bad timeout or cookie name at start-up", () => {
    for (const code of [
      { "platform.session.timeout": "soon" },
      { "platform.session.timeout": "0" },
      { "platform.session.cookie-name": "" },
      { "platform.session.cookie-name": "a;b" },
      { "platform.session.cookie-name": "a b" },
    ]) {
      expect(
        codeOf(() => resolveProperties(SESSION_PROPERTIES, { env: {}, code })),
        JSON.stringify(code),
      ).toBe("PROPERTY_INVALID");
    }
  });
});
