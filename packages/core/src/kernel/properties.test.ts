import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isPlatformError } from "./platform-error.js";
import { defineProperty, envNameOf, prop, resolveProperties } from "./properties.js";

const TIMEOUT = defineProperty({
  key: "platform.test.session-timeout",
  schema: prop.duration(),
  default: 600_000,
  description: "test duration",
});
const RETRIES = defineProperty({
  key: "platform.test.maxRetryAttempts",
  schema: prop.int(1, 10),
  default: 5,
  description: "test int",
});
const ENABLED = defineProperty({
  key: "platform.test.enabled",
  schema: prop.bool(),
  default: false,
  description: "test bool",
});
const DEFS = [TIMEOUT, RETRIES, ENABLED];

function tempJson(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "props-"));
  const file = join(dir, "platform.json");
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

function failure(run: () => unknown): { code: string; message: string; details: Record<string, unknown> } {
  try {
    run();
  } catch (e) {
    if (isPlatformError(e)) return { code: e.code, message: e.message, details: e.details ?? {} };
    throw e;
  }
  throw new Error("expected a PlatformError");
}

describe("resolveProperties", () => {
  it("uses defaults when no source sets a key", () => {
    const p = resolveProperties(DEFS, { env: {} });
    expect(p.get(TIMEOUT)).toBe(600_000);
    expect(p.get(RETRIES)).toBe(5);
    expect(p.sourceOf(TIMEOUT.key)).toBe("default");
  });

  it("orders sources code > env > file > default", () => {
    const file = tempJson({ "platform.test.session-timeout": "PT1M", "platform.test.maxRetryAttempts": 2 });
    const env = { PLATFORM_TEST_SESSION_TIMEOUT: "90s", PLATFORM_TEST_MAXRETRYATTEMPTS: "3" };
    const p = resolveProperties(DEFS, { code: { "platform.test.maxRetryAttempts": 4 }, env, file });
    expect(p.get(RETRIES)).toBe(4);
    expect(p.sourceOf(RETRIES.key)).toBe("code");
    expect(p.get(TIMEOUT)).toBe(90_000);
    expect(p.sourceOf(TIMEOUT.key)).toBe("env");
    const fileOnly = resolveProperties(DEFS, { env: {}, file });
    expect(fileOnly.get(TIMEOUT)).toBe(60_000);
    expect(fileOnly.sourceOf(TIMEOUT.key)).toBe("file");
  });

  it("reads nested config files", () => {
    const file = tempJson({ platform: { test: { enabled: true, "session-timeout": "P1D" } } });
    const p = resolveProperties(DEFS, { env: {}, file });
    expect(p.get(ENABLED)).toBe(true);
    expect(p.get(TIMEOUT)).toBe(86_400_000);
  });

  it("derives environment names by upper-casing and replacing dots and dashes", () => {
    expect(envNameOf("platform.auth.mfa.sessionTimeoutMs")).toBe("PLATFORM_AUTH_MFA_SESSIONTIMEOUTMS");
    expect(envNameOf("platform.http.max-body-size")).toBe("PLATFORM_HTTP_MAX_BODY_SIZE");
  });

  it("stops on a bad value naming key, value, source and rule", () => {
    const f = failure(() => resolveProperties(DEFS, { env: { PLATFORM_TEST_MAXRETRYATTEMPTS: "11" } }));
    expect(f.code).toBe("PROPERTY_INVALID");
    expect(f.message).toContain("platform.test.maxRetryAttempts");
    expect(f.message).toContain('"11"');
    expect(f.message).toContain("<= 10");
    expect(f.details).toMatchObject({ key: "platform.test.maxRetryAttempts", value: "11", source: "env" });
  });

  it.each([
    [{ "platform.test.session-timeout": "soon" }, "duration"],
    [{ "platform.test.maxRetryAttempts": "two" }, "integer"],
    [{ "platform.test.maxRetryAttempts": 2.5 }, "integer"],
    [{ "platform.test.enabled": "yes" }, "true or false"],
  ])("refuses %j with a rule mentioning %s", (code, rule) => {
    const f = failure(() => resolveProperties(DEFS, { code, env: {} }));
    expect(f.code).toBe("PROPERTY_INVALID");
    expect(f.message).toContain(rule);
  });

  it("refuses an unknown key from code or file instead of ignoring a typo", () => {
    const f = failure(() =>
      resolveProperties(DEFS, { code: { "platform.test.maxRetryAtempts": 3 }, env: {} }),
    );
    expect(f.details).toMatchObject({ key: "platform.test.maxRetryAtempts", rule: "unknown key" });
    const file = tempJson({ platform: { test: { typo: 1 } } });
    expect(failure(() => resolveProperties(DEFS, { env: {}, file })).details).toMatchObject({
      key: "platform.test.typo",
      source: "file",
    });
  });

  it("names where a wrong value came from: the config module, the variable, the file; and the nearest key", () => {
    const fromModule = failure(() =>
      resolveProperties(DEFS, {
        code: { "platform.test.maxRetryAtempts": 3 },
        codeOrigin: "config module ./platform.config.ts",
        env: {},
      }),
    );
    expect(fromModule.message).toBe(
      "Unknown property platform.test.maxRetryAtempts (from config module ./platform.config.ts); did you mean platform.test.maxRetryAttempts?",
    );
    expect(fromModule.details).toMatchObject({ nearest: "platform.test.maxRetryAttempts" });
    const badValue = failure(() =>
      resolveProperties(DEFS, {
        code: { "platform.test.maxRetryAttempts": 99 },
        codeOrigin: "config module c.mjs",
        env: {},
      }),
    );
    expect(badValue.message).toContain("(from config module c.mjs)");
    const fromEnv = failure(() => resolveProperties(DEFS, { env: { PLATFORM_TEST_MAXRETRYATTEMPTS: "99" } }));
    expect(fromEnv.message).toContain("(from env PLATFORM_TEST_MAXRETRYATTEMPTS)");
    const file = tempJson({ platform: { test: { maxRetryAttempts: 0 } } });
    expect(failure(() => resolveProperties(DEFS, { env: {}, file })).message).toContain(
      `(from file ${file})`,
    );
    expect(failure(() => resolveProperties(DEFS, { code: { "platform.zzz": 1 }, env: {} })).message).toBe(
      "Unknown property platform.zzz (from code)",
    );
  });

  it("lists PLATFORM_* and SECURITY_* variables that name no property, with the nearest name", () => {
    const properties = resolveProperties(DEFS, {
      env: {
        PLATFORM_TEST_SESSION_TIMEOUT: "5s",
        PLATFORM_TEST_SESION_TIMEOUT: "5s",
        SECURITY_NOTHING_LIKE_IT_AT_ALL: "1",
        PLATFORM_READ_BY_A_MODULE: "x",
        HOME: "/root",
      },
      readDirectly: ["PLATFORM_READ_BY_A_MODULE"],
    });
    expect(properties.unknownEnvironment()).toEqual([
      { name: "PLATFORM_TEST_SESION_TIMEOUT", nearest: "PLATFORM_TEST_SESSION_TIMEOUT" },
      { name: "SECURITY_NOTHING_LIKE_IT_AT_ALL" },
    ]);
    expect(properties.suggest("platform.test.sesion-timeout")).toBe("platform.test.session-timeout");
    expect(properties.suggest("something.else.entirely")).toBeUndefined();
  });

  it("refuses an unreadable config file with a clear error", () => {
    expect(failure(() => resolveProperties(DEFS, { env: {}, file: tempJson("{not json") })).code).toBe(
      "CONFIGURATION_INVALID",
    );
    expect(failure(() => resolveProperties(DEFS, { env: {}, file: "/nonexistent/p.json" })).code).toBe(
      "CONFIGURATION_INVALID",
    );
  });

  it("refuses a key declared twice", () => {
    expect(failure(() => resolveProperties([RETRIES, RETRIES], { env: {} })).code).toBe(
      "CONFIGURATION_INVALID",
    );
  });

  it("lists every property with value and source for the property table", () => {
    const p = resolveProperties(DEFS, { code: { "platform.test.enabled": true }, env: {} });
    expect(p.list().map((e) => [e.key, e.value, e.source])).toEqual([
      ["platform.test.session-timeout", 600_000, "default"],
      ["platform.test.maxRetryAttempts", 5, "default"],
      ["platform.test.enabled", true, "code"],
    ]);
  });
});
