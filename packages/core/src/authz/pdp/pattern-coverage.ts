import type { PathPattern, PatternSegment } from "../../web/path-pattern.js";

/** A URL target as shadow detection sees it. */
export interface CoverageTarget {
  readonly pattern: PathPattern;
  /** Upper-case method or ANY. */
  readonly method: string;
}

/** A segment that matches any single non-empty segment: `*` or `{name}`. */
const isAnySegment = (s: PatternSegment): boolean =>
  s.kind === "any" || (s.kind === "variable" && s.regex === undefined);

/** The same segment, variable names aside (`{a:\d+}` and `{b:\d+}` match the same segments). */
const same = (x: PatternSegment, y: PatternSegment): boolean =>
  (x.kind === "literal" && y.kind === "literal" && x.text === y.text) ||
  (x.kind === "partial" && y.kind === "partial" && x.text === y.text) ||
  (x.kind === "variable" && y.kind === "variable" && x.regex === y.regex) ||
  (x.kind === "any" && y.kind === "any");

/**
 * True when every request `b` matches is certainly matched by `a` (so, under FIRST_APPLICABLE, a
 * policy targeting `b` placed after one targeting `a` can never decide). Conservative: it answers
 * false whenever coverage cannot be shown segment by segment on the compiled segments (regex
 * variables against others, `**` in the middle of `a`, partial wildcards), so a reported shadow is
 * always real.
 */
export function covers(a: CoverageTarget, b: CoverageTarget): boolean {
  if (a.method !== "ANY" && a.method !== b.method) return false;
  if (a.pattern.source === b.pattern.source) return true;
  const as = a.pattern.segments;
  const bs = b.pattern.segments;
  for (let i = 0; i < as.length; i++) {
    const x = as[i]!;
    // Only a trailing `**` is understood: it takes any rest of b, including none.
    if (x.kind === "rest") return i === as.length - 1;
    const y = bs[i];
    if (y === undefined || y.kind === "rest") return false;
    if (same(x, y)) continue;
    // `*` also matches what `{v}` matches; `{v}` does not cover `*` (which matches empty segments).
    const nonEmpty = (y.kind === "literal" && y.text !== "") || (isAnySegment(y) && y.kind !== "any");
    if (isAnySegment(x) && (nonEmpty || (x.kind === "any" && y.kind === "any"))) continue;
    return false;
  }
  return as.length === bs.length;
}
