import { closingBrace } from "./canonical-path.js";
import { checkVariableRegex, compileSegmentRegex, type RegexProblem } from "./variable-regex.js";

/**
 * A compiled partial segment (policy targets only: wildcards and variables inside one segment), or
 * a whole `{name:regex}` segment, which runs the same way.
 */
export interface PartialSegment {
  /** True when the whole segment matches; writes its variables into `caps` (by slot) when given. */
  test(segment: string, caps: Array<string | undefined> | undefined): boolean;
  /** RE2 instructions of its regex (0 without a `{name:regex}`). */
  readonly programSize: number;
}

/** How a partial segment reports to the pattern it belongs to. */
export interface PartialSegmentHost {
  /** Declares a variable (refusing a bad or repeated name); returns its capture slot. */
  declare(name: string): number;
  /** Refuses a regex; `offset` is into the segment's text. */
  refuse(problem: string, offset: number, found: RegexProblem): never;
}

type Token =
  | { readonly kind: "lit"; readonly text: string }
  | { readonly kind: "one" }
  | { readonly kind: "star" }
  | { readonly kind: "var"; readonly slot: number }
  | {
      readonly kind: "regex";
      readonly slot: number;
      readonly source: string;
      readonly at: number;
      readonly groups: number;
    };

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
  const name = colon === -1 ? body : body.slice(0, colon);
  const slot = host.declare(name);
  if (colon === -1) return { kind: "var", slot };
  const source = body.slice(colon + 1);
  const regexAt = at + colon + 1;
  const checked = checkVariableRegex(source);
  if ("reason" in checked) host.refuse(`has an invalid regex for variable '${name}'`, regexAt, checked);
  return { kind: "regex", slot, source, at: regexAt, groups: checked.groups };
}

/**
 * Matches `?`, `*`, `{var}` and literals without a RegExp, right to left with the classic wildcard
 * algorithm: linear-ish in the segment length, and the last variable takes the shortest text, so
 * `{name}.{ext}` splits `a.tar.gz` into `a.tar` and `gz` as Spring's greedy regexes do.
 */
function globSegment(tokens: readonly Token[]): PartialSegment {
  // Variable bounds by slot, reused: matching is synchronous.
  const bounds = new Map<number, [number, number]>();
  const test = (path: string, caps: Array<string | undefined> | undefined): boolean => {
    const start = 0;
    let ti = tokens.length - 1;
    let p = path.length;
    let starTi = -1;
    let starP = start;
    const mark = (slot: number, from: number, to: number): void => {
      if (caps) bounds.set(slot, [from, to]);
    };
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
            if (t.kind === "var") mark(t.slot, p - min, p);
            p -= min;
            starTi = ti;
            starP = p;
            ti--;
            continue;
          }
        }
      } else if (p === start) {
        if (caps) for (const [slot, [from, to]] of bounds) caps[slot] = path.slice(from, to);
        return true;
      }
      if (starTi < 0 || starP <= start) return false;
      p = --starP;
      const star = tokens[starTi]!;
      if (caps && star.kind === "var") mark(star.slot, p, bounds.get(star.slot)![1]);
      ti = starTi - 1;
    }
  };
  return { test, programSize: 0 };
}

/** A segment holding `{var:regex}`: one regex, compiled once, run anchored on that segment by RE2. */
function regexSegment(tokens: readonly Token[], host: PartialSegmentHost): PartialSegment {
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
    return host.refuse(
      "has variable regexes that cannot be combined",
      first.kind === "regex" ? first.at : 0,
      {
        index: 0,
        reason: re.reason,
      },
    );
  }
  const numbers = groups.map((g) => g.group);
  return {
    programSize: re.programSize,
    test(text, caps) {
      if (!caps) return re.test(text);
      const spans = re.spans(text, numbers);
      if (!spans) return false;
      groups.forEach(({ slot }, i) => {
        caps[slot] = text.slice(spans[i * 2]!, spans[i * 2 + 1]!);
      });
      return true;
    },
  };
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
}
