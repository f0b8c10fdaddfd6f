import { codePointName, codePointsOf, type UsernameProblem } from "./username-problem.js";

const MARK = /^[\p{Mn}\p{Me}]$/u;
// Scripts whose accented letters Unicode precomposes: a mark NFC leaves separate on one of their
// letters (`ad\u0301min`, `i\u0307`) is drawn over or beside a plain letter and reads as that letter.
const PRECOMPOSING = /^[\p{scx=Latin}\p{scx=Greek}\p{scx=Cyrillic}\p{scx=Common}\p{scx=Inherited}]$/u;
/** UTS #39 section 5.4 suggests refusing long runs of nonspacing marks. */
const MAX_MARKS_IN_A_ROW = 4;

/**
 * The combining-mark checks of UTS #39 section 5.4 on an NFC string: no mark at the start, no mark
 * repeated at once, at most four in a row, and none left uncomposed on a Latin, Greek, Cyrillic or
 * common character (which covers the dot above on an `i`, the section's own example).
 */
export function combiningMarkProblem(nfc: string): UsernameProblem | undefined {
  const cps = codePointsOf(nfc);
  let base: number | undefined;
  let run = 0;
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i] as number;
    if (!MARK.test(String.fromCodePoint(cp))) {
      base = cp;
      run = 0;
      continue;
    }
    run++;
    if (base === undefined) return mark("must not start with a combining mark");
    if (cps[i - 1] === cp) return mark(`must not repeat the combining mark ${codePointName(cp)}`);
    if (run > MAX_MARKS_IN_A_ROW)
      return mark(`must not stack more than ${MAX_MARKS_IN_A_ROW} combining marks`);
    if (PRECOMPOSING.test(String.fromCodePoint(base))) {
      return mark(
        `must not put ${codePointName(cp)} on ${codePointName(base)}: Latin, Greek and Cyrillic letters ` +
          "take only the accents Unicode composes into one character",
      );
    }
  }
  return undefined;
}

function mark(message: string): UsernameProblem {
  return { rule: "combining-mark", message };
}
