/** The rules a new username can break, as stable ids (the `rule` of a VALIDATION_FAILED's details). */
export type UsernameRule =
  | "type"
  | "length"
  | "empty"
  | "identifier-class"
  | "default-ignorable"
  | "unassigned"
  | "unstable"
  | "combining-mark"
  | "bidi"
  | "mixed-script";

/** Why a new username is refused: the rule it breaks and a message naming it (no secret in it). */
export interface UsernameProblem {
  readonly rule: UsernameRule;
  /** Completes "username …", e.g. "must be written in one script …". */
  readonly message: string;
}

/** `U+034F`: how a message names a code point (the character itself may be invisible). */
export function codePointName(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The code points of `s` (a lone surrogate counts as one). */
export function codePointsOf(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0) as number);
  return out;
}
