import { PlatformError } from "../kernel/platform-error.js";
import { canonicalPathPattern, closingBrace } from "./canonical-path.js";
import { compilePartialSegment, type PartialSegment } from "./partial-segment.js";
import type { RegexProblem } from "./variable-regex.js";

/**
 * Where a pattern is written. The language is one; the places differ only in what they accept:
 * `route` also takes `:name` (converted to `{name}` once) and wants `**` last and `*` at most once
 * (both are handed to the handler), `policy` also takes partial-segment wildcards (`*.css`, `t?st`,
 * `v{major}.{minor}`), which `matcher` (chains, static rules) and `route` refuse.
 */
export type PathPatternUse = "matcher" | "route" | "policy";

/** One compiled segment of a path pattern. */
export type PatternSegment =
  | { readonly kind: "literal"; readonly text: string }
  /** `*`: any one segment. */
  | { readonly kind: "any" }
  /** `**`: zero or more segments. */
  | { readonly kind: "rest" }
  /** `{name}` (any non-empty segment) or `{name:regex}` (a segment the RE2 regex matches whole). */
  | { readonly kind: "variable"; readonly name: string; readonly regex: string | undefined }
  /** Policy targets only: wildcards or variables inside a segment (`*.css`, `v{n:\d+}`), as written. */
  | { readonly kind: "partial"; readonly text: string };

/** Path variables by name, decoded; in a route's, `*` and `**` hold the raw segment and the raw rest. */
export type PathVariables = Record<string, string>;

/**
 * A path pattern compiled once into segments: what chain matchers, static authorization rules, the
 * route table and policy targets (and the PDP's trie, built from `segments`) all run. Paths are
 * matched in canonical form (HttpExchange.path), split once per request into segments
 * (`HttpExchange.match.segments`).
 */
export interface PathPattern {
  /** The pattern as written. */
  readonly pattern: string;
  /** The pattern in the one syntax, canonical (`:id` as `{id}`, `/a/` as `/a`): what answers and docs show. */
  readonly source: string;
  readonly segments: readonly PatternSegment[];
  /** RE2 instructions of its regexes together (0 without any), for the policy set's regex budget. */
  readonly regexProgramSize: number;
  /** Ranks per segment (0 literal, 1 one-segment wildcard or variable, 2 `**`): see compareSpecificity. */
  readonly specificity: readonly number[];
  /** The pattern with variable names erased (`/a/{}`): `/a/{id}`, `/a/{name}` and `/a/*` are one shape. */
  readonly shape: string;
  /** True when the canonical path matches. */
  matches(path: string): boolean;
  /** True when the path, split into segments (`splitPath`), matches. */
  test(parts: readonly string[]): boolean;
  /**
   * The whole-segment variables of a matching path split into segments, decoded once (`%20` is a
   * space; a partial segment's variables only judge, as a policy target's do), or null
   * when it does not match or a variable's escapes are not UTF-8 (a route cannot hand such a value
   * over; `test`, which decides chains and policies, judges the segment as sent).
   */
  match(parts: readonly string[]): PathVariables | null;
}

/** The longest pattern accepted; longer ones are a configuration mistake, not a route. */
export const MAX_PATH_PATTERN_LENGTH = 1024;

const VARIABLE_NAME = /^[A-Za-z][\w-]*$/;
const ROUTE_PARAMETER = /^:([A-Za-z][\w-]*)$/;

/** A segment test: writes what it captures into `caps` (by slot) when given. */
type SegmentTest = (segment: string, caps: Array<string | undefined> | undefined) => boolean;
/** The `**` marker among the tests. */
const REST = 0;
/**
 * One compiled segment: `**` (REST), a literal segment as its text (compared inline by the walk, no
 * function call per segment), or a test.
 */
type Element = SegmentTest | string | typeof REST;

/**
 * `:name` route segments written as `{name}` (`/users/:id` is `/users/{id}`); every other segment as
 * written. Routes are converted once, where they are registered; nothing else reads `:name`.
 */
export function routePattern(path: string): string {
  if (!path.includes("/:")) return path;
  return path
    .split("/")
    .map((s) => s.replace(ROUTE_PARAMETER, "{$1}"))
    .join("/");
}

/**
 * Splits a canonical path into its segments exactly: `/` is one empty segment, `/a/` ends with one.
 * A request's path is split once, by its exchange (`HttpExchange.match.segments`), and every matcher
 * it meets (chains, rules, CSRF exemptions, routes, the PDP's index) reads those segments.
 */
export function splitPath(path: string): readonly string[] {
  return path === "" ? [""] : path.slice(1).split("/");
}

/**
 * Compiles a pattern of the one path language: literal segments, `*` (one segment), `**` (zero or
 * more segments), `{name}` (a non-empty segment) and `{name:regex}` (a segment an RE2 regex matches,
 * linear time: see variable-regex.ts); `:name` in routes and partial-segment wildcards in policy
 * targets (see PathPatternUse). Literal text is read in canonical path form (`/orders/` is `/orders`,
 * `/%61dmin` is `/admin`). Throws CONFIGURATION_INVALID naming the pattern and the problem.
 */
export function compilePathPattern(pattern: string, use: PathPatternUse = "matcher"): PathPattern {
  if (pattern.length > MAX_PATH_PATTERN_LENGTH)
    fail(pattern, `is longer than ${MAX_PATH_PATTERN_LENGTH} characters`);
  if (!pattern.startsWith("/")) fail(pattern, "must start with '/'");
  const text = canonicalPathPattern(use === "route" ? routePattern(pattern) : pattern);
  // Escaping can lengthen it (a raw `é` is `%C3%A9`); the stored canonical form must compile too.
  if (text.length > MAX_PATH_PATTERN_LENGTH)
    fail(pattern, `is longer than ${MAX_PATH_PATTERN_LENGTH} characters`);
  const names: string[] = [];
  const segments: PatternSegment[] = [];
  const elements: Element[] = [];
  let regexProgramSize = 0;
  for (const [raw, at] of segmentTexts(pattern, text)) {
    const segment = parseSegment(pattern, raw, at, use, text === "/");
    if (segment.kind === "rest" && segments[segments.length - 1]?.kind === "rest") continue;
    segments.push(segment);
    const compiled = compileElement(pattern, segment, at, names);
    elements.push(compiled.test);
    regexProgramSize += compiled.programSize;
  }
  if (use === "route") checkRoute(pattern, segments);
  return new CompiledPathPattern(pattern, segments, elements, names, regexProgramSize, use === "route");
}

/** The segment texts of a canonical pattern with their offsets; a `/` inside `{...}` does not split. */
function segmentTexts(pattern: string, text: string): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  let start = 1;
  for (let i = 1; i <= text.length; i++) {
    const c = text[i];
    if (c === "{") {
      const close = closingBrace(text, i);
      if (close === -1) fail(pattern, `has an unclosed '{' at index ${i}`);
      i = close;
    } else if (c === "}") fail(pattern, `has an unmatched '}' at index ${i}`);
    else if (c === undefined || c === "/") {
      out.push([text.slice(start, i), start]);
      start = i + 1;
    }
  }
  return out;
}

function parseSegment(
  pattern: string,
  raw: string,
  at: number,
  use: PathPatternUse,
  root: boolean,
): PatternSegment {
  if (raw === "**") return { kind: "rest" };
  if (raw === "*") return { kind: "any" };
  if (raw.startsWith("{") && closingBrace(raw, 0) === raw.length - 1) {
    const body = raw.slice(1, -1);
    const colon = body.indexOf(":");
    const name = colon === -1 ? body : body.slice(0, colon);
    return { kind: "variable", name, regex: colon === -1 ? undefined : body.slice(colon + 1) };
  }
  if (/[*?{]/.test(raw)) {
    if (use === "policy") return { kind: "partial", text: raw };
    fail(
      pattern,
      `has a partial-segment wildcard '${raw}' at index ${at}: '*', '?' and variables inside a segment are accepted in policy targets only; write a whole segment ('*', '**', '{name}' or '{name:regex}')`,
    );
  }
  if (raw === "" && !root && use === "route") fail(pattern, `has an empty segment at index ${at}`);
  if (use === "route" && raw.startsWith(":")) fail(pattern, `has a bad route parameter '${raw}'`);
  return { kind: "literal", text: raw };
}

/** A route hands `*` and a trailing `**` to its handler, so each is one value. */
function checkRoute(pattern: string, segments: readonly PatternSegment[]): void {
  const rest = segments.findIndex((s) => s.kind === "rest");
  if (rest !== -1 && rest !== segments.length - 1)
    fail(pattern, "has '**' before its last segment (a route's '**' is its tail)");
  if (segments.filter((s) => s.kind === "any").length > 1)
    fail(pattern, "has '*' more than once (a route hands its '*' over)");
}

function compileElement(
  pattern: string,
  segment: PatternSegment,
  at: number,
  names: string[],
): { test: Element; programSize: number } {
  if (segment.kind === "rest") return { test: REST, programSize: 0 };
  if (segment.kind === "any") return { test: anySegment, programSize: 0 };
  if (segment.kind === "literal") return { test: segment.text, programSize: 0 };
  if (segment.kind === "variable" && segment.regex === undefined) {
    const slot = declare(pattern, segment.name, names);
    const test: SegmentTest = (s, caps) => {
      if (s === "") return false;
      if (caps) caps[slot] = s;
      return true;
    };
    return { test, programSize: 0 };
  }
  // `{name:regex}` runs as a partial segment's regex does: RE2, anchored on the segment alone, so
  // `.` or `\D` never crosses '/'. Only a whole-segment variable is captured (a partial segment is
  // a policy target's, which hands no variables over).
  let slot = -1;
  const partial: PartialSegment = compilePartialSegment(segmentSource(segment), {
    declare: (name) => {
      slot = declare(pattern, name, names);
    },
    refuse: (problem, offset, found) => failRegex(pattern, problem, at + offset, found),
  });
  // The regex judges the decoded text a handler receives (`%3C` is `<`, `%C3%A9` is `é`), so a
  // variable's regex validates what reaches the code and `\pL` means letters; a segment whose escapes
  // are not UTF-8 (refused by the HTTP binding before matching) is judged as sent.
  const test: SegmentTest =
    segment.kind === "variable"
      ? (s, caps) => {
          if (!partial.test(decode(s) ?? s)) return false;
          if (caps) caps[slot] = s;
          return true;
        }
      : (s) => partial.test(decode(s) ?? s);
  return { test, programSize: partial.programSize };
}

/** `*`: any segment, captured in the last slot (routes read it as `params["*"]`). */
const anySegment: SegmentTest = (s, caps) => {
  if (caps) caps[caps.length - 1] = s;
  return true;
};

function declare(pattern: string, name: string, names: string[]): number {
  if (!VARIABLE_NAME.test(name)) fail(pattern, `has an invalid variable name '${name}'`);
  if (names.includes(name)) fail(pattern, `declares variable '${name}' twice`);
  return names.push(name) - 1;
}

/**
 * Walks the segments left to right with the classic wildcard algorithm: only the latest `**` is
 * ever widened, one segment at a time, so a match costs O(segments × elements) and a hostile path
 * cannot trigger the backtracking a single RegExp with several `**` would.
 */
class CompiledPathPattern implements PathPattern {
  readonly source: string;
  readonly specificity: readonly number[];
  readonly shape: string;
  private readonly fixedLength: number;
  private readonly anyCount: number;
  /** True when a single `**` ends the pattern: `match` hands the rest of the path over as `**`. */
  private readonly tail: boolean;

  constructor(
    readonly pattern: string,
    readonly segments: readonly PatternSegment[],
    private readonly elements: readonly Element[],
    private readonly names: readonly string[],
    readonly regexProgramSize: number,
    /** A route's: `match` also hands over `*` and a trailing `**`, raw. */
    route: boolean,
  ) {
    this.source = `/${segments.map(segmentSource).join("/")}`;
    this.specificity = segments.map((s) => (s.kind === "literal" ? 0 : s.kind === "rest" ? 2 : 1));
    this.shape = `/${segments.map(segmentShape).join("/")}`;
    this.fixedLength = segments.some((s) => s.kind === "rest") ? -1 : segments.length;
    this.anyCount = route ? segments.filter((s) => s.kind === "any").length : 0;
    this.tail = route && segments.findIndex((s) => s.kind === "rest") === segments.length - 1;
  }

  matches(path: string): boolean {
    return path.charCodeAt(0) === 47 || path === "" ? this.test(splitPath(path), undefined) : false;
  }

  match(parts: readonly string[]): PathVariables | null {
    // One slot per name, then `*`'s.
    const caps: Array<string | undefined> = new Array(this.names.length + 1);
    if (!this.test(parts, caps)) return null;
    const out: PathVariables = {};
    for (let i = 0; i < this.names.length; i++) {
      const raw = caps[i];
      if (raw === undefined) continue; // a partial segment's: judged, not handed over
      const value = decode(raw);
      if (value === undefined) return null;
      out[this.names[i]!] = value;
    }
    if (this.anyCount === 1) out["*"] = caps[this.names.length]!;
    if (this.tail) out["**"] = parts.slice(this.segments.length - 1).join("/");
    return out;
  }

  /**
   * True when the segments match. The walk itself (no inner helper: matchers call this on every
   * request); `caps`, for `match`, receives the variables' raw text.
   */
  test(parts: readonly string[], caps?: Array<string | undefined>): boolean {
    const els = this.elements;
    if (this.fixedLength >= 0 && parts.length !== this.fixedLength) return false;
    let ei = 0;
    let pi = 0;
    let starEi = -1;
    let starPi = 0;
    for (;;) {
      if (ei < els.length) {
        const el = els[ei]!;
        if (el === REST) {
          if (ei === els.length - 1) return true;
          starEi = ei;
          starPi = pi;
          ei++;
          continue;
        }
        if (pi < parts.length && (typeof el === "string" ? el === parts[pi] : el(parts[pi]!, caps))) {
          pi++;
          ei++;
          continue;
        }
      } else if (pi === parts.length) {
        return true;
      }
      if (starEi < 0 || starPi >= parts.length) return false;
      pi = ++starPi;
      ei = starEi + 1;
    }
  }
}

function segmentSource(s: PatternSegment): string {
  switch (s.kind) {
    case "literal":
    case "partial":
      return s.text;
    case "any":
      return "*";
    case "rest":
      return "**";
    case "variable":
      return s.regex === undefined ? `{${s.name}}` : `{${s.name}:${s.regex}}`;
  }
}

function segmentShape(s: PatternSegment): string {
  if (s.kind === "any" || (s.kind === "variable" && s.regex === undefined)) return "{}";
  if (s.kind === "variable") return `{:${s.regex}}`;
  return segmentSource(s);
}

/**
 * Compares two specificities: negative when `a` is more specific than `b` (`/a/b` before `/a/{x}`
 * before `/a/**`, segment by segment; on a common prefix the longer pattern first).
 */
export function compareSpecificity(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return b.length - a.length;
}

function decode(raw: string): string | undefined {
  if (!raw.includes("%")) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/**
 * A refused regex: `details.position` is the 0-based offset of the problem in the pattern as compiled
 * (its canonical form, which is also what a policy stores), `details.reason` says what is wrong.
 */
function failRegex(pattern: string, problem: string, regexAt: number, found: RegexProblem): never {
  const position = regexAt + found.index;
  throw new PlatformError(
    "CONFIGURATION_INVALID",
    `Path pattern '${pattern}' ${problem} at index ${position}: ${found.reason}`,
    {
      details: { pattern, position, reason: found.reason },
    },
  );
}

function fail(pattern: string, problem: string): never {
  throw new PlatformError("CONFIGURATION_INVALID", `Path pattern '${pattern}' ${problem}`, {
    details: { pattern },
  });
}
