import { CodePointRanges } from "./code-point-ranges.js";
import { BIDI_CLASS_RANGES } from "./unicode-tables.generated.js";
import { codePointsOf, type UsernameProblem } from "./username-problem.js";

/** A Bidi_Class as RFC 5893 names it (only those a username can hold). */
export type BidiClass = keyof typeof BIDI_CLASS_RANGES | "L";

const TABLES = (Object.keys(BIDI_CLASS_RANGES) as (keyof typeof BIDI_CLASS_RANGES)[]).map(
  (name) => [name, new CodePointRanges(BIDI_CLASS_RANGES[name])] as const,
);
const RTL_ALLOWED: ReadonlySet<BidiClass> = new Set([
  "R",
  "AL",
  "AN",
  "EN",
  "ES",
  "CS",
  "ET",
  "ON",
  "BN",
  "NSM",
]);
const RTL_END: ReadonlySet<BidiClass> = new Set(["R", "AL", "EN", "AN"]);

/** The Bidi_Class of `codePoint` among the code points a username can hold (L when in no table). */
export function bidiClassOf(codePoint: number): BidiClass {
  for (const [name, ranges] of TABLES) if (ranges.has(codePoint)) return name;
  return "L";
}

/**
 * The Bidi Rule of RFC 5893 section 2, which RFC 8265 applies to a username holding right-to-left
 * code points (Bidi_Class R, AL or AN); a name without any passes untouched.
 */
export function bidiRuleProblem(s: string): UsernameProblem | undefined {
  const classes = codePointsOf(s).map(bidiClassOf);
  if (!classes.some((c) => c === "R" || c === "AL" || c === "AN")) return undefined;
  const first = classes[0];
  if (first === "L") return bidi("must not mix right-to-left characters into a left-to-right name");
  if (first !== "R" && first !== "AL") {
    return bidi("must start with a letter when it holds right-to-left characters");
  }
  if (classes.some((c) => !RTL_ALLOWED.has(c))) {
    return bidi("must not mix left-to-right letters into a right-to-left name");
  }
  let end = classes.length - 1;
  while (end > 0 && classes[end] === "NSM") end--;
  if (!RTL_END.has(classes[end] as BidiClass)) {
    return bidi("must end a right-to-left name with a right-to-left letter or a digit");
  }
  if (classes.includes("EN") && classes.includes("AN")) {
    return bidi("must not mix European and Arabic-Indic digits in a right-to-left name");
  }
  return undefined;
}

function bidi(message: string): UsernameProblem {
  return { rule: "bidi", message: `${message} (RFC 5893 Bidi Rule)` };
}
