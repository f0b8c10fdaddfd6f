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

  it("names the rule in the message and in details.issues[0].reason", () => {
    const error = (() => {
      try {
        checkNewUsername("john smith");
      } catch (e) {
        return e;
      }
    })();
    expect(error).toMatchObject({
      code: "VALIDATION_FAILED",
      message: expect.stringContaining("RFC 8265"),
      details: { issues: [{ path: "username", reason: "identifier-class" }] },
    });
  });

  it("accepts names of one script: e-mail-like Latin, Japanese, Cyrillic, Hebrew", () => {
    for (const name of ["alice@example.com", "山田たろうタロウ", "ђорђе", "שלום"]) {
      expect(checkNewUsername(name), name).toBe(name);
    }
  });
});
