import { PlatformError } from "../../kernel/platform-error.js";
import {
  bidiRuleProblem,
  combiningMarkProblem,
  identifierClassProblem,
  mixedScriptProblem,
  type UsernameProblem,
  usernameCaseMapped,
} from "./unicode/index.js";
import { normalizeUsername } from "./username-key.js";

/** Longest new username, in code points after NFKC and trimming. */
export const MAX_USERNAME_LENGTH = 128;
/** Longest input looked at, in UTF-16 units: bounds the normalisation work before the real length is known. */
const MAX_RAW_LENGTH = 8 * MAX_USERNAME_LENGTH;

/**
 * Why `raw` cannot be a new username, or undefined when it can. The display form (`normalizeUsername`:
 * NFKC, trimmed, case kept) holds 1 to 128 code points; it and its PRECIS UsernameCaseMapped form
 * (RFC 8265) hold only IdentifierClass code points, none default-ignorable nor newer than the
 * confusables data (Unicode 13.0); the form settles, passes the Bidi Rule (RFC 5893), the
 * combining-mark checks and UTS #39's "Highly Restrictive" script level. Uniqueness is the
 * repository's (by `usernameSkeleton`).
 */
export function newUsernameProblem(raw: unknown): UsernameProblem | undefined {
  if (typeof raw !== "string") return { rule: "type", message: "must be a string" };
  const tooLong: UsernameProblem = {
    rule: "length",
    message: `must be 1 to ${MAX_USERNAME_LENGTH} characters`,
  };
  if (raw.length > MAX_RAW_LENGTH) return tooLong;
  const display = normalizeUsername(raw);
  if (display === "") return { rule: "empty", message: "must not be empty" };
  if ([...display].length > MAX_USERNAME_LENGTH) return tooLong;
  const mapped = usernameCaseMapped(display);
  if (!mapped.settled)
    return { rule: "unstable", message: "must not change when case-mapped again (RFC 8264)" };
  return (
    identifierClassProblem(display) ??
    identifierClassProblem(mapped.form) ??
    combiningMarkProblem(mapped.form) ??
    bidiRuleProblem(mapped.form) ??
    mixedScriptProblem(mapped.form)
  );
}

/**
 * The username a UserRepository stores for a new or renamed account: `raw` normalised by
 * `normalizeUsername`. Throws VALIDATION_FAILED naming the broken rule (`details.rule`) when
 * `newUsernameProblem` finds one. Every adapter runs this one rule, so all of them refuse the same
 * names; a name stored before the rule existed is not checked again while it stays unchanged.
 */
export function checkNewUsername(raw: string): string {
  const problem = newUsernameProblem(raw);
  if (problem) {
    throw new PlatformError("VALIDATION_FAILED", `Username ${problem.message}`, {
      details: { issues: [{ path: "username", message: problem.message, reason: problem.rule }] },
    });
  }
  return normalizeUsername(raw);
}
