import { PlatformError } from "../../kernel/platform-error.js";
import { compilePathPattern } from "../../web/path-pattern.js";
import type { PolicyTarget } from "./policy.js";

/**
 * The RE2 instructions all stored policies' `{var:regex}` URL targets may add up to. One request
 * can at worst test every regex target on a segment of at most 128 characters, so this bounds the
 * regex work of any request to about 640,000 steps (a few milliseconds), however many policies an
 * administrator (or an approved AI-generated policy) saves. A typical variable (`{id:\d+}`) costs
 * about 10 instructions; the largest single segment 500.
 */
export const MAX_POLICY_SET_REGEX_PROGRAM_SIZE = 5_000;

/** The RE2 instructions of a policy's URL targets (0 without regex variables). */
export function regexProgramSizeOf(targets: readonly PolicyTarget[]): number {
  let size = 0;
  for (const t of targets) {
    if (t.targetType === "URL" && t.targetIdentifier.includes("{")) {
      size += compilePathPattern(t.targetIdentifier, "policy").regexProgramSize;
    }
  }
  return size;
}

/**
 * Refuses a save that would take the stored policies' regex work over
 * MAX_POLICY_SET_REGEX_PROGRAM_SIZE: `others` is every other stored policy's targets, `targets` the
 * saved policy's. 400 VALIDATION_FAILED naming `targets` with the totals. Two concurrent saves may
 * each pass alone; the bound is then exceeded by at most one policy's worth (at most 50 targets).
 */
export function assertRegexBudget(
  others: ReadonlyArray<readonly PolicyTarget[]>,
  targets: readonly PolicyTarget[],
): void {
  const own = regexProgramSizeOf(targets);
  if (own === 0) return;
  const total = others.reduce((sum, t) => sum + regexProgramSizeOf(t), own);
  if (total <= MAX_POLICY_SET_REGEX_PROGRAM_SIZE) return;
  const message = `the regex variables of all policies would compile to ${total} RE2 instructions, more than ${MAX_POLICY_SET_REGEX_PROGRAM_SIZE} (this policy's: ${own}); use fewer or simpler {var:regex} targets`;
  throw new PlatformError("VALIDATION_FAILED", `The request is invalid: targets ${message}`, {
    details: { issues: [{ path: "targets", message, reason: message }] },
  });
}
