// The Unicode rules of new usernames: RFC 8265 (PRECIS UsernameCaseMapped) and UTS #39.
export { bidiClassOf, bidiRuleProblem, type BidiClass } from "./bidi-rule.js";
export { combiningMarkProblem } from "./combining-marks.js";
export { confusableSkeleton } from "./confusable-skeleton.js";
export { identifierClassProblem } from "./precis-identifier-class.js";
export { mixedScriptProblem } from "./script-restriction.js";
export { type CaseMapped, usernameCaseMapped } from "./username-case-mapped.js";
export type { UsernameProblem, UsernameRule } from "./username-problem.js";
