import { describe, expect, it } from "vitest";
import { checkNewUsername, MAX_USERNAME_LENGTH, newUsernameProblem } from "./check-new-username.js";
import { usernameSkeleton } from "./username-key.js";

// Issue #25 item 5: the users API refused full-width, case, spacing and zero-width variants of `admin`
// but accepted these, each listed beside the real account. Each is now refused (the rule named) or
// shares the skeleton of the account it imitates (the repository answers CONFLICT).
const REFUSED = [
  ["\u0430dmin", "mixed-script"],
  ["adm\u0130n", "combining-mark"],
  ["ad\u0301min", "combining-mark"],
  ["user\u034f", "default-ignorable"],
  ["user\u3164", "default-ignorable"],
  ["user\u2800", "identifier-class"],
  ["user\ufe00", "default-ignorable"],
  ["user\ufe0f", "default-ignorable"],
] as const;

describe("checkNewUsername against lookalikes (issue #25 item 5)", () => {
  it.each(REFUSED)("refuses %j by rule %s", (username, rule) => {
    expect(newUsernameProblem(username)?.rule).toBe(rule);
    expect(() => checkNewUsername(username)).toThrow(expect.objectContaining({ code: "VALIDATION_FAILED" }));
  });

  it("gives the lookalikes it accepts the skeleton of the name they imitate", () => {
    for (const username of ["adm\u0131n", "adrnin", "ADMIN", "ａｄｍｉｎ", "𝐚𝐝𝐦𝐢𝐧"]) {
      expect(newUsernameProblem(username), username).toBeUndefined();
      expect(usernameSkeleton(username), username).toBe(usernameSkeleton("admin"));
    }
    expect(usernameSkeleton("\u0430dmin")).toBe(usernameSkeleton("admin"));
  });

  it("bounds the input before normalising it, and the name after", () => {
    expect(newUsernameProblem("a".repeat(MAX_USERNAME_LENGTH))).toBeUndefined();
    expect(newUsernameProblem("a".repeat(MAX_USERNAME_LENGTH + 1))?.rule).toBe("length");
    expect(newUsernameProblem("\ufdfa".repeat(100))?.rule).toBe("length");
    const started = performance.now();
    expect(newUsernameProblem("\ufdfa".repeat(1_000_000))?.rule).toBe("length");
    expect(performance.now() - started).toBeLessThan(50);
  });

  it("checks a long name of many scripts' letters quickly (no backtracking, bounded work)", () => {
    const started = performance.now();
    for (const ch of ["a", "\u0430", "山", "\u05d0", "\u0915"])
      newUsernameProblem(ch.repeat(MAX_USERNAME_LENGTH));
    newUsernameProblem("a\u0430".repeat(MAX_USERNAME_LENGTH / 2));
    expect(performance.now() - started).toBeLessThan(500);
  });
});
