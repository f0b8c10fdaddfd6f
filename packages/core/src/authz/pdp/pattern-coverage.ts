/** A URL target as shadow detection sees it. */
export interface CoverageTarget {
  readonly pattern: string;
  /** Upper-case method or ANY. */
  readonly method: string;
}

/** A whole-segment wildcard that matches any single non-empty segment. */
const isAnySegment = (s: string): boolean => s === "*" || /^\{[A-Za-z][\w-]*\}$/.test(s);
const isLiteral = (s: string): boolean => !/[*?{]/.test(s);

/**
 * True when every request `b` matches is certainly matched by `a` (so, under FIRST_APPLICABLE, a
 * policy targeting `b` placed after one targeting `a` can never decide). Conservative: it answers
 * false whenever coverage cannot be shown segment by segment (regex variables, `**` in the middle of
 * `a`, partial wildcards), so a reported shadow is always real.
 */
export function covers(a: CoverageTarget, b: CoverageTarget): boolean {
  if (a.method !== "ANY" && a.method !== b.method) return false;
  if (a.pattern === b.pattern) return true;
  const as = a.pattern.slice(1).split("/");
  const bs = b.pattern.slice(1).split("/");
  for (let i = 0; i < as.length; i++) {
    const x = as[i]!;
    if (x === "**") {
      // Only a trailing `**` is understood: it takes any rest of b, including none.
      return i === as.length - 1;
    }
    const y = bs[i];
    if (y === undefined || y === "**") return false;
    if (x === y) continue;
    if (isAnySegment(x) && y !== "" && (isLiteral(y) || isAnySegment(y))) {
      // `*` also matches what `{v}` matches; `{v}` does not cover `*` (which matches empty segments).
      if (x !== "*" && y === "*") return false;
      continue;
    }
    return false;
  }
  return as.length === bs.length;
}
