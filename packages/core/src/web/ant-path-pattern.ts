import { PlatformError } from "../kernel/platform-error.js";
import { canonicalAntPattern } from "./canonical-path.js";
import { checkVariableRegex, compileSegmentRegex, type RegexProblem } from "./variable-regex.js";

/** A compiled Ant-style path pattern (`/api/**`, `/users/{id:\d+}`, `/*.css`). */
export interface AntPathPattern {
  /** The pattern as written. */
  readonly pattern: string;
  /** True when the whole path (canonical, as HttpExchange.path; no query string) matches the pattern. */
  matches(path: string): boolean;
  /** The URI template variables of a matching path (raw, not percent-decoded), or undefined. */
  extract(path: string): Record<string, string> | undefined;
  /**
   * RE2 instructions of its `{var:regex}` segments together (0 without any): what one match may
   * cost per character of a segment, so stores can bound the regex work of a whole policy set.
   */
  readonly regexProgramSize: number;
}

/** The longest pattern accepted; longer ones are a configuration mistake, not a route. */
export const MAX_ANT_PATTERN_LENGTH = 1024;

const SLASH = 47;
const VAR_NAME = /^[A-Za-z][\w-]*$/;

type Token =
  | { readonly kind: "lit"; readonly text: string }
  | { readonly kind: "one" }
  | { readonly kind: "star" }
  | { readonly kind: "var"; readonly slot: number }
  | {
      readonly kind: "regex";
      readonly slot: number;
      readonly source: string;
      /** Offset of the regex in the pattern, for error positions. */
      readonly at: number;
      /** Capture groups of the regex's own. */
      readonly groups: number;
    };

/** Matches one path segment `path[start, end)`; writes variable bounds into `caps` when given. */
interface SegmentMatcher {
  match(path: string, start: number, end: number, caps: Int32Array | undefined): boolean;
  /** RE2 instructions of a regex segment; absent for the others. */
  readonly programSize?: number;
}

/** Marks a whole-segment `**`: zero or more whole segments. */
const ANY_SEGMENTS = Symbol("**");
type Element = SegmentMatcher | typeof ANY_SEGMENTS;

/**
 * Compiles an Ant-style pattern once. `?` is one character, `*` any run within a segment, a whole
 * `**` segment any number of segments, `{name}` a non-empty segment part and `{name:regex}` a part
 * matching `regex`, an RE2 regex matched in linear time (no backreferences or lookaround, see
 * variable-regex.ts). Literal text is read in canonical path form (canonicalAntPattern: `/orders/` is
 * `/orders`, `/%61dmin` is `/admin`), since it is matched against canonical paths (HttpExchange.path).
 * Throws CONFIGURATION_INVALID for malformed patterns.
 */
export function compileAntPattern(pattern: string): AntPathPattern {
  if (pattern.length > MAX_ANT_PATTERN_LENGTH) {
    fail(pattern, `is longer than ${MAX_ANT_PATTERN_LENGTH} characters`);
  }
  if (pattern.charCodeAt(0) !== SLASH) fail(pattern, "must start with '/'");
  const text = canonicalAntPattern(pattern);
  // Escaping can lengthen it (a raw `é` is `%C3%A9`); the stored canonical form must compile too.
  if (text.length > MAX_ANT_PATTERN_LENGTH)
    fail(pattern, `is longer than ${MAX_ANT_PATTERN_LENGTH} characters`);
  const names: string[] = [];
  const elements: Element[] = [];
  for (const segment of parseSegments(text, names)) {
    if (segment === ANY_SEGMENTS) {
      // `/**/**` means the same as `/**`; collapsing keeps the matcher's work proportional.
      if (elements[elements.length - 1] !== ANY_SEGMENTS) elements.push(ANY_SEGMENTS);
    } else {
      elements.push(compileSegment(pattern, segment));
    }
  }
  return new CompiledAntPattern(pattern, elements, names);
}

/**
 * Walks the pattern's segments left to right with the classic wildcard algorithm: only the latest
 * `**` is ever widened, one segment at a time, so a match costs O(segments × elements) and hostile
 * paths cannot trigger the exponential backtracking a single RegExp with several `**` would.
 */
class CompiledAntPattern implements AntPathPattern {
  readonly regexProgramSize: number;

  constructor(
    readonly pattern: string,
    private readonly elements: readonly Element[],
    private readonly names: readonly string[],
  ) {
    this.regexProgramSize = elements.reduce(
      (sum, e) => sum + (e === ANY_SEGMENTS ? 0 : (e.programSize ?? 0)),
      0,
    );
  }

  matches(path: string): boolean {
    return this.run(path === "" ? "/" : path, undefined);
  }

  extract(path: string): Record<string, string> | undefined {
    const p = path === "" ? "/" : path;
    const caps = new Int32Array(this.names.length * 2);
    if (!this.run(p, caps)) return undefined;
    const out: Record<string, string> = {};
    this.names.forEach((name, slot) => {
      out[name] = p.slice(caps[slot * 2], caps[slot * 2 + 1]);
    });
    return out;
  }

  private run(path: string, caps: Int32Array | undefined): boolean {
    if (path.charCodeAt(0) !== SLASH) return false;
    const els = this.elements;
    const len = path.length;
    let ei = 0;
    // p is the index of the '/' opening the next segment, or len once the path is consumed.
    let p = 0;
    let starEi = -1;
    let starP = 0;
    for (;;) {
      if (ei < els.length) {
        const el = els[ei]!;
        if (el === ANY_SEGMENTS) {
          if (ei === els.length - 1) return true;
          starEi = ei;
          starP = p;
          ei++;
          continue;
        }
        if (p < len) {
          const end = segmentEnd(path, p + 1);
          if (el.match(path, p + 1, end, caps)) {
            p = end;
            ei++;
            continue;
          }
        }
      } else if (p === len) {
        return true;
      }
      if (starEi < 0 || starP >= len) return false;
      starP = segmentEnd(path, starP + 1);
      p = starP;
      ei = starEi + 1;
    }
  }
}

function segmentEnd(path: string, from: number): number {
  const i = path.indexOf("/", from);
  return i === -1 ? path.length : i;
}

/** Splits the pattern into token lists (or `**` markers), honouring braces that may hold a regex. */
function parseSegments(pattern: string, names: string[]): Array<Token[] | typeof ANY_SEGMENTS> {
  const segments: Array<Token[] | typeof ANY_SEGMENTS> = [];
  let tokens: Token[] = [];
  let lit = "";
  let segStart = 1;
  const flush = (): void => {
    if (lit !== "") tokens.push({ kind: "lit", text: lit });
    lit = "";
  };
  let i = 1;
  for (; i <= pattern.length; i++) {
    const c = pattern[i];
    if (c === undefined || c === "/") {
      flush();
      segments.push(pattern.slice(segStart, i) === "**" ? ANY_SEGMENTS : tokens);
      tokens = [];
      segStart = i + 1;
    } else if (c === "*") {
      flush();
      // `**` inside a segment (e.g. `/a**`) behaves like `*`.
      if (tokens[tokens.length - 1]?.kind !== "star") tokens.push({ kind: "star" });
    } else if (c === "?") {
      flush();
      tokens.push({ kind: "one" });
    } else if (c === "{") {
      flush();
      const close = closingBrace(pattern, i);
      tokens.push(parseVariable(pattern, pattern.slice(i + 1, close), names, i + 1));
      i = close;
    } else if (c === "}") {
      fail(pattern, `has an unmatched '}' at index ${i}`);
    } else {
      lit += c;
    }
  }
  return segments;
}

function closingBrace(pattern: string, open: number): number {
  let depth = 0;
  for (let j = open; j < pattern.length; j++) {
    const c = pattern[j];
    if (c === "\\") j++;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return j;
  }
  return fail(pattern, `has an unclosed '{' at index ${open}`);
}

function parseVariable(pattern: string, body: string, names: string[], at: number): Token {
  const colon = body.indexOf(":");
  const name = colon === -1 ? body : body.slice(0, colon);
  if (!VAR_NAME.test(name)) fail(pattern, `has an invalid variable name '${name}'`);
  if (names.includes(name)) fail(pattern, `declares variable '${name}' twice`);
  const slot = names.push(name) - 1;
  if (colon === -1) return { kind: "var", slot };
  const source = body.slice(colon + 1);
  const regexAt = at + colon + 1;
  const checked = checkVariableRegex(source);
  if ("reason" in checked)
    failRegex(pattern, `has an invalid regex for variable '${name}'`, regexAt, checked);
  return { kind: "regex", slot, source, at: regexAt, groups: checked.groups };
}

function compileSegment(pattern: string, tokens: readonly Token[]): SegmentMatcher {
  if (tokens.length === 0) return literalSegment("");
  const only = tokens[0]!;
  if (tokens.length === 1 && only.kind === "lit") return literalSegment(only.text);
  if (tokens.some((t) => t.kind === "regex")) return regexSegment(pattern, tokens);
  return globSegment(tokens);
}

function literalSegment(text: string): SegmentMatcher {
  return {
    match: (path, start, end) => end - start === text.length && path.startsWith(text, start),
  };
}

/**
 * Matches `?`, `*`, `{var}` and literals without a RegExp, right to left with the classic wildcard
 * algorithm: linear-ish in the segment length, and the last variable takes the shortest text, so
 * `{name}.{ext}` splits `a.tar.gz` into `a.tar` and `gz` as Spring's greedy regexes do.
 */
function globSegment(tokens: readonly Token[]): SegmentMatcher {
  return {
    match(path, start, end, caps) {
      let ti = tokens.length - 1;
      let p = end;
      let starTi = -1;
      let starP = start;
      for (;;) {
        if (ti >= 0) {
          const t = tokens[ti]!;
          if (t.kind === "lit") {
            const s = p - t.text.length;
            if (s >= start && path.startsWith(t.text, s)) {
              p = s;
              ti--;
              continue;
            }
          } else if (t.kind === "one") {
            if (p > start) {
              p--;
              ti--;
              continue;
            }
          } else if (t.kind === "star" || t.kind === "var") {
            const min = t.kind === "var" ? 1 : 0;
            if (p - min >= start) {
              if (caps && t.kind === "var") caps[t.slot * 2 + 1] = p;
              p -= min;
              if (caps && t.kind === "var") caps[t.slot * 2] = p;
              starTi = ti;
              starP = p;
              ti--;
              continue;
            }
          }
        } else if (p === start) {
          return true;
        }
        if (starTi < 0 || starP <= start) return false;
        p = --starP;
        const star = tokens[starTi]!;
        if (caps && star.kind === "var") caps[star.slot * 2] = p;
        ti = starTi - 1;
      }
    },
  };
}

/**
 * A segment holding `{var:regex}`: one regex, compiled once, run anchored on that segment's text
 * only, by RE2 (linear time in the text, whatever the regex: see variable-regex.ts).
 */
function regexSegment(pattern: string, tokens: readonly Token[]): SegmentMatcher {
  let source = "";
  let group = 0;
  const groups: Array<{ slot: number; group: number }> = [];
  for (const t of tokens) {
    if (t.kind === "lit") source += escapeRegex(t.text);
    else if (t.kind === "one") source += "[^/]";
    else if (t.kind === "star") source += "[^/]*";
    else if (t.kind === "var") {
      groups.push({ slot: t.slot, group: ++group });
      source += "([^/]+)";
    } else {
      groups.push({ slot: t.slot, group: ++group });
      group += t.groups;
      source += `((?:${t.source}))`;
    }
  }
  const re = compileSegmentRegex(source);
  if ("reason" in re) {
    const first = tokens.find((t) => t.kind === "regex")!;
    // RE2 reports an offset into the joined source; the segment's first regex is the useful place.
    return failRegex(pattern, "has variable regexes that cannot be combined", first.at, {
      index: 0,
      reason: re.reason,
    });
  }
  const numbers = groups.map((g) => g.group);
  return {
    programSize: re.programSize,
    match(path, start, end, caps) {
      // Running on the segment alone is what keeps `.` or `\D` in a variable regex from crossing '/'.
      const text = path.slice(start, end);
      if (!caps) return re.test(text);
      const spans = re.spans(text, numbers);
      if (!spans) return false;
      groups.forEach(({ slot }, i) => {
        caps[slot * 2] = start + spans[i * 2]!;
        caps[slot * 2 + 1] = start + spans[i * 2 + 1]!;
      });
      return true;
    },
  };
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
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

function fail(pattern: string, problem: string, cause?: unknown): never {
  throw new PlatformError("CONFIGURATION_INVALID", `Path pattern '${pattern}' ${problem}`, {
    cause,
    details: { pattern },
  });
}
