import { describe, expect, it } from "vitest";
import type { PlatformErrorCode } from "../kernel/error-code-table.js";
import { PlatformError } from "../kernel/platform-error.js";
import { statusForCode } from "./error-codes.js";
import { errorResponse } from "./error-response.js";

describe("error code table", () => {
  it.each([
    ["MALFORMED_JSON", 400],
    ["VALIDATION_FAILED", 400],
    ["UNSUPPORTED_MEDIA_TYPE", 415],
    ["PAYLOAD_TOO_LARGE", 413],
    ["AUTHENTICATION_REQUIRED", 401],
    ["BAD_CREDENTIALS", 401],
    ["MFA_CHALLENGE_REQUIRED", 401],
    ["CSRF_TOKEN_INVALID", 403],
    ["AUTHENTICATION_BLOCKED", 403],
    ["ACCOUNT_LOCKED", 423],
    ["TOO_MANY_ATTEMPTS", 429],
    ["ILLEGAL_STATE_TRANSITION", 409],
    ["NO_SUCH_CODE", 500],
  ])("%s answers %d", (code, status) => {
    expect(statusForCode(code)).toBe(status);
  });
});

describe("errorResponse", () => {
  it("keeps a client error's code, message and details", () => {
    const r = errorResponse(
      new PlatformError("VALIDATION_FAILED", "username is required", { details: { field: "username" } }),
      "c1",
    );
    expect(r).toEqual({
      status: 400,
      body: { code: "VALIDATION_FAILED", message: "username is required", field: "username" },
      unexpected: false,
    });
  });

  it("does not let details overwrite the code or message", () => {
    // A code known only at run time takes untyped details, hostile ones included.
    const code = "BAD_CREDENTIALS" as PlatformErrorCode;
    const r = errorResponse(
      new PlatformError(code, "Bad credentials", { details: { code: "X", message: "y" } }),
      "c",
    );
    expect(r.body.code).toBe("BAD_CREDENTIALS");
    expect(r.body.message).toBe("Bad credentials");
  });

  it("hides unknown errors behind a generic 500 with the correlation id", () => {
    const r = errorResponse(new TypeError("secret internals at /srv/app.ts:12"), "corr-9");
    expect(r).toEqual({
      status: 500,
      body: { code: "INTERNAL_ERROR", message: "Internal error", correlationId: "corr-9" },
      unexpected: true,
    });
  });

  it("hides the message of a 5xx PlatformError too", () => {
    const r = errorResponse(new PlatformError("CONFIGURATION_INVALID", "db password wrong"), "c2");
    expect(r.status).toBe(500);
    expect(JSON.stringify(r.body)).not.toContain("password");
    expect(r.unexpected).toBe(true);
    expect(r.body.code).toBe("INTERNAL_ERROR");
  });
});
