import { closingBrace } from "./canonical-path.js";
import { checkVariableRegex, compileSegmentRegex, type RegexProblem } from "./variable-regex.js";

/**
 * A compiled partial segment (policy targets only: wildcards and variables inside one segment), or
 * a whole `{name:regex}` segment, which runs the same way. It only judges: a policy target hands no
 * variables over, and routes, which do, refuse partial segments.
 */
export interface PartialSegment {
  /** True when the whole segment matches. */
  test(segment: string): boolean;
  /** RE2 instructions of its regex (0 without a `{name:regex}`). */
  readonly programSize: number;
}

/** How a partial segment reports to the pattern it belongs to. */
export interface PartialSegmentHost {
  /** Declares a variable (refusing a bad or repeated name). */
  declare(name: string): void;
  /** Refuses a regex; `offset` is into the segment's text. */
  refuse(problem: string, offset: number, found: RegexProblem): never;
}

type Token =
  | { readonly kind: "lit"; readonly text: string }
  | { readonly kind: "one" }
  | { readonly kind: "star" }
  | { readonly kind: "var" }
  | { readonly kind: "regex"; readonly source: string; readonly at: number };

/**
 * Compiles a segment mixing literal text with `?` (one character), `*` (any run), `{name}` (a
 * non-empty run) and `{name:regex}` (an RE2 regex): `*.css`, `t?st`, `{name}.{ext}`, `v{n:\d+}`.
 * The path pattern has checked the braces and names the variables.
 */
export function compilePartialSegment(text: string, host: PartialSegmentHost): PartialSegment {
  const tokens = tokenize(text, host);
  return tokens.some((t) => t.kind === "regex") ? regexSegment(tokens, host) : globSegment(tokens);
}

function tokenize(text: string, host: PartialSegmentHost): Token[] {
  const tokens: Token[] = [];
  let lit = "";
  const flush = (): void => {
    if (lit !== "") tokens.push({ kind: "lit", text: lit });
    lit = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "*") {
      flush();
      // `**` inside a segment (e.g. `/a**`) behaves like `*`.
      if (tokens[tokens.length - 1]?.kind !== "star") tokens.push({ kind: "star" });
    } else if (c === "?") {
      flush();
      tokens.push({ kind: "one" });
    } else if (c === "{") {
      flush();
      // The path pattern has checked that every brace closes.
      const close = closingBrace(text, i);
      tokens.push(variable(text.slice(i + 1, close), i + 1, host));
      i = close;
    } else {
      lit += c;
    }
  }
  flush();
  return tokens;
}

function variable(body: string, at: number, host: PartialSegmentHost): Token {
  const colon = body.indexOf(":");
  host.declare(colon === -1 ? body : body.slice(0, colon));
  if (colon === -1) return { kind: "var" };
  const source = body.slice(colon + 1);
  const regexAt = at + colon + 1;
  const checked = checkVariableRegex(source);
  if ("reason" in checked)
    host.refuse(`has an invalid regex for variable '${body.slice(0, colon)}'`, regexAt, checked);
  return { kind: "regex", source, at: regexAt };
}

/**
 * Matches `?`, `*`, `{var}` and literals without a RegExp, right to left with the classic wildcard
 * algorithm (only the latest `*` or `{var}` is widened, one character at a time): linear-ish in the
 * segment's length, so a hostile segment cannot make it backtrack.
 */
function globSegment(tokens: readonly Token[]): PartialSegment {
  const test = (text: string): boolean => {
    let ti = tokens.length - 1;
    let p = text.length;
    let starTi = -1;
    let starP = 0;
    for (;;) {
      if (ti >= 0) {
        const t = tokens[ti]!;
        if (t.kind === "lit") {
          const s = p - t.text.length;
          if (s >= 0 && text.startsWith(t.text, s)) {
            p = s;
            ti--;
            continue;
          }
        } else if (t.kind === "one" || t.kind === "star" || t.kind === "var") {
          const min = t.kind === "star" ? 0 : 1;
          if (p - min >= 0) {
            p -= min;
            if (t.kind !== "one") {
              starTi = ti;
              starP = p;
            }
            ti--;
            continue;
          }
        }
      } else if (p === 0) {
        return true;
      }
      if (starTi < 0 || starP <= 0) return false;
      p = --starP;
      ti = starTi - 1;
    }
  };
  return { test, programSize: 0 };
}

/** A segment holding `{var:regex}`: one regex, compiled once, run anchored on that segment by RE2. */
function regexSegment(tokens: readonly Token[], host: PartialSegmentHost): PartialSegment {
  let source = "";
  for (const t of tokens) {
    if (t.kind === "lit") source += escapeRegex(t.text);
    else if (t.kind === "one") source += "[^/]";
    else if (t.kind === "star") source += "[^/]*";
    else if (t.kind === "var") source += "([^/]+)";
    else source += `((?:${t.source}))`;
  }
  const re = compileSegmentRegex(source);
  if ("reason" in re) {
    const first = tokens.find((t) => t.kind === "regex");
    // RE2 reports an offset into the joined source; the segment's first regex is the useful place.
    return host.refuse(
      "has variable regexes that cannot be combined",
      first?.kind === "regex" ? first.at : 0,
      {
        index: 0,
        reason: re.reason,
      },
    );
  }
  return { programSize: re.programSize, test: (text) => re.test(text) };
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
}
