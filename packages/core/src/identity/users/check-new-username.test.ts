import { describe, expect, it } from "vitest";
import { checkNewUsername } from "./check-new-username.js";

const validationFailed = expect.objectContaining({ code: "VALIDATION_FAILED" });

describe("checkNewUsername", () => {
  it("answers the stored form: NFKC-normalised, trimmed, case kept", () => {
    expect(checkNewUsername("  ＡＬｉｃｅ\u3000")).toBe("ALice");
  });

  it("refuses an empty, blank or non-string name with VALIDATION_FAILED", () => {
    expect(() => checkNewUsername("")).toThrow(validationFailed);
    expect(() => checkNewUsername(" \t\u3000")).toThrow(validationFailed);
    expect(() => checkNewUsername(42 as unknown as string)).toThrow(validationFailed);
  });
});
