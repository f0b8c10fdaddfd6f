import { describe, expect, it } from "vitest";
import type { PlatformErrorCode } from "../../kernel/error-code-table.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { DEFAULT_FAILURE_TYPE, FAILURE_TYPES, failureTypeOf } from "./failure-type.js";

describe("failureTypeOf", () => {
  it("maps each sign-in error code to the failure type clients see", () => {
    const expected: [PlatformErrorCode, string][] = [
      ["BAD_CREDENTIALS", "BAD_CREDENTIALS"],
      ["ACCOUNT_LOCKED", "ACCOUNT_LOCKED"],
      ["ACCOUNT_DISABLED", "ACCOUNT_DISABLED"],
      ["TOO_MANY_ATTEMPTS", "TOO_MANY_ATTEMPTS"],
      ["VALIDATION_FAILED", "INVALID_REQUEST"],
      ["MISSING_PARAMETER", "INVALID_REQUEST"],
      ["MALFORMED_JSON", "INVALID_REQUEST"],
      ["MALFORMED_BODY", "INVALID_REQUEST"],
      ["UNSUPPORTED_MEDIA_TYPE", "INVALID_REQUEST"],
      ["PAYLOAD_TOO_LARGE", "INVALID_REQUEST"],
      ["INVALID_TOKEN", "INVALID_TOKEN"],
      ["TOKEN_EXPIRED", "TOKEN_EXPIRED"],
    ];
    expect(Object.entries(FAILURE_TYPES)).toEqual(expected);
    for (const [code, type] of expected) expect(failureTypeOf(new PlatformError(code, "m"))).toBe(type);
  });

  it("shows AUTHENTICATION_FAILED for anything else, inherited keys included", () => {
    expect(DEFAULT_FAILURE_TYPE).toBe("AUTHENTICATION_FAILED");
    for (const error of [
      new PlatformError("INTERNAL_ERROR", "db down"),
      // Codes no table holds (a foreign copy's, say) must not hit inherited keys of the map.
      new PlatformError("toString" as PlatformErrorCode, "m"),
      new PlatformError("__proto__" as PlatformErrorCode, "m"),
      new Error("BAD_CREDENTIALS"),
      { code: "BAD_CREDENTIALS" },
      undefined,
      "BAD_CREDENTIALS",
    ]) {
      expect(failureTypeOf(error)).toBe("AUTHENTICATION_FAILED");
    }
  });
});
