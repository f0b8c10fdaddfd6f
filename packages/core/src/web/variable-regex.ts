import { RE2JS, RE2JSSyntaxException } from "re2js";

/**
 * The largest program (RE2 instructions) one segment's regex may compile to. RE2 matches in time
 * linear in the text, but the factor is the program size: at this cap a hostile 2,048-character
 * segment costs tens of milliseconds at worst, where an uncapped `.{0,999}` repeated 40 times costs
 * seconds. Ordinary variable regexes (`\d+`, a UUID, `[\w.-]{1,200}`) stay well below it.
 */
export const MAX_REGEX_PROGRAM_SIZE = 500;

/**
 * The longest path segment a `{var:regex}` segment is tried on; a longer one never matches it. RE2
 * runs in time linear in the text, but a program built to defeat its DFA falls back to the NFA at
 * up to MAX_REGEX_PROGRAM_SIZE steps per character: 128 characters bound one test to about 64,000
 * steps (well under a millisecond), where a 2,000-character segment took several milliseconds and
 * fifty such targets in one policy made each anonymous request cost seconds.
 */
export const MAX_REGEX_SEGMENT_LENGTH = 128;

/** Why a regex is refused, and where: a 0-based UTF-16 offset into the regex text. */
export interface RegexProblem {
  readonly index: number;
  readonly reason: string;
}

/** A variable regex that compiled: how many capture groups of its own it has. */
export interface CheckedRegex {
  readonly groups: number;
}

/** One segment's compiled regex: an anchored, linear-time (RE2) match on the segment's text. */
export interface SegmentRegex {
  /** RE2 instructions of the compiled program (its worst-case work per character). */
  readonly programSize: number;
  /** True when the whole text matches. */
  test(text: string): boolean;
}

/**
 * Checks one `{name:regex}` regex: RE2 syntax (github.com/google/re2/wiki/Syntax), no `/`, no
 * backreferences, no lookaround, and a program within MAX_REGEX_PROGRAM_SIZE. Returns the groups it
 * captures, or the first problem with its offset. Refusing here is what lets the matcher promise
 * linear time: a backtracking engine is never used for configured regexes.
 */
export function checkVariableRegex(source: string): CheckedRegex | RegexProblem {
  if (source === "") return { index: 0, reason: "empty regex (write {name} for any non-empty text)" };
  const slash = source.indexOf("/");
  if (slash !== -1)
    return { index: slash, reason: "a regex containing '/' would let the variable span segments" };
  const problem = scanRegex(source);
  if (problem) return problem;
  const compiled = compileRe2(source);
  if ("reason" in compiled) return compiled;
  const size = compiled.programSize();
  if (size > MAX_REGEX_PROGRAM_SIZE) return { index: 0, reason: tooLarge(size) };
  return { groups: compiled.groupCount() };
}

/**
 * Compiles the regex of a whole segment (literals and variables already joined), anchored at both
 * ends by how it is run. Returns a problem (offset into `source`) when RE2 refuses the combination
 * (two variables naming the same group) or its program is over MAX_REGEX_PROGRAM_SIZE.
 */
export function compileSegmentRegex(source: string): SegmentRegex | RegexProblem {
  const re = compileRe2(source);
  if ("reason" in re) return re;
  const size = re.programSize();
  if (size > MAX_REGEX_PROGRAM_SIZE) return { index: 0, reason: tooLarge(size) };
  return {
    programSize: size,
    test: (text) => text.length <= MAX_REGEX_SEGMENT_LENGTH && re.testExact(text),
  };
}

function compileRe2(source: string): RE2JS | RegexProblem {
  try {
    return RE2JS.compile(source);
  } catch (error) {
    if (error instanceof RE2JSSyntaxException) {
      const at = error.input ? source.indexOf(error.input) : -1;
      const shown = error.input ? `: '${error.input.slice(0, 40)}'` : "";
      return { index: Math.max(at, 0), reason: `${error.error}${shown}` };
    }
    return { index: 0, reason: "the regex cannot be compiled" };
  }
}

/** The reason for an oversized program; `at` names the text where an estimate crossed the cap. */
function tooLarge(size: number, at?: string): string {
  const compiles = at === undefined ? `compiles to ${size}` : `would compile to about ${size} (at '${at}')`;
  return (
    `the regex ${compiles} instructions, more than ${MAX_REGEX_PROGRAM_SIZE}: ` +
    "counted repetitions such as {1,500} expand; use + or a smaller count"
  );
}

/** `{n}`, `{n,}` or `{n,m}` at the sticky index (RE2 reads any other `{` as a literal). */
const COUNTED = /\{(\d{1,9})(?:(,)(\d{0,9}))?\}/y;

/**
 * One pass over the regex before RE2 sees it: refuses, with their exact offsets, the constructs that
 * JavaScript accepts and RE2 does not (backreferences, lookaround, `\u`), and a program that
 * would outgrow the cap, estimated token by token (a counted repetition multiplies what it repeats),
 * so RE2 never spends long compiling a program that will be refused. Other syntax errors are RE2's.
 */
function scanRegex(source: string): RegexProblem | undefined {
  // Estimated instructions of each open group, innermost last.
  const sizes = [0];
  // Estimated instructions of what a quantifier here would repeat; 0 when nothing (RE2 then refuses).
  let atom = 0;
  for (let i = 0; i < source.length; i++) {
    const start = i;
    const c = source[i];
    let cost = 1;
    let repeats = 1;
    const rep = c === "{" && atom > 0 ? counted(source, i) : undefined;
    if (c === "\\") {
      const problem = escapeProblem(source, i);
      if (problem) return problem;
      i = escapeEnd(source, i);
      if (source[start + 1] === "Q") cost = repeats = Math.max(i - start - 3, 0);
    } else if (c === "[") {
      const end = classEnd(source, i);
      if (typeof end !== "number") return end;
      i = end;
    } else if (c === "(") {
      const look = LOOKAROUND.find(([prefix]) => source.startsWith(prefix, i));
      if (look)
        return { index: i, reason: `${look[1]} '${look[0]}' is not supported (RE2 has no lookaround)` };
      // A capture costs two instructions; `(?:…)`, `(?i:…)` and a flag group `(?i)` cost none.
      sizes.push(source[i + 1] !== "?" || /^\(\?P?<[A-Za-z_]/.test(source.slice(i, i + 5)) ? 2 : 0);
      atom = 0;
      continue;
    } else if (c === ")") {
      if (sizes.length === 1) return undefined; // unbalanced: RE2 reports it
      cost = repeats = sizes.pop()!;
    } else if (rep) {
      // `x{n,m}` is x written m times, the last m - n of them optional (one split each).
      cost = atom * (rep.max - 1) + (rep.max - rep.min);
      repeats = 0;
      i = rep.end - 1;
    } else if (c === "|" || c === "*" || c === "+" || c === "?") {
      repeats = 0;
    }
    sizes[sizes.length - 1]! += cost;
    const total = sizes.reduce((sum, n) => sum + n, 0);
    if (total > MAX_REGEX_PROGRAM_SIZE) {
      return { index: start, reason: tooLarge(total, source.slice(start, i + 1).slice(0, 40)) };
    }
    atom = repeats;
  }
  return undefined;
}

const LOOKAROUND: ReadonlyArray<readonly [string, string]> = [
  ["(?<=", "lookbehind"],
  ["(?<!", "lookbehind"],
  ["(?=", "lookahead"],
  ["(?!", "lookahead"],
];

/** The counted repetition at `i` (`{n,}` counts as n + 1 copies), with the index after it. */
function counted(source: string, i: number): { min: number; max: number; end: number } | undefined {
  COUNTED.lastIndex = i;
  const m = COUNTED.exec(source);
  if (!m) return undefined;
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : m[3] === "" ? min + 1 : Number(m[3]);
  return { min, max: Math.max(min, max, 1), end: COUNTED.lastIndex };
}

/** Escapes JavaScript reads one way and RE2 refuses or reads another, refused with a clear reason. */
function escapeProblem(source: string, i: number): RegexProblem | undefined {
  const next = source[i + 1] ?? "";
  if (next >= "1" && next <= "9") {
    return { index: i, reason: `backreference '\\${next}' is not supported (RE2 has no backreferences)` };
  }
  if (next === "k")
    return { index: i, reason: "named backreference '\\k' is not supported (RE2 has no backreferences)" };
  if (next === "u") return { index: i, reason: "'\\u' escapes are not RE2 syntax: write \\x{hhhh}" };
  return undefined;
}

/** The index of the last character of the escape starting at `i` (`\d`, `\pL`, `\p{Greek}`, `\x{41}`, `\Q…\E`). */
function escapeEnd(source: string, i: number): number {
  const next = source[i + 1];
  if ((next === "p" || next === "P" || next === "x") && source[i + 2] === "{") {
    const close = source.indexOf("}", i + 3);
    return close === -1 ? source.length - 1 : close;
  }
  if (next === "p" || next === "P") return Math.min(i + 2, source.length - 1);
  if (next === "x") return Math.min(i + 3, source.length - 1);
  if (next === "Q") {
    const close = source.indexOf("\\E", i + 2);
    return close === -1 ? source.length - 1 : close + 1;
  }
  return Math.min(i + 1, source.length - 1);
}

/** The index of the `]` closing the class at `open`, a problem inside it, or the end (RE2 reports it). */
function classEnd(source: string, open: number): number | RegexProblem {
  let j = open + 1;
  if (source[j] === "^") j++;
  if (source[j] === "]") j++; // a leading `]` is a literal
  for (; j < source.length; j++) {
    const c = source[j];
    if (c === "]") return j;
    if (c === "\\") {
      const problem = escapeProblem(source, j);
      if (problem) return problem;
      j = escapeEnd(source, j);
    } else if (c === "[" && source[j + 1] === ":") {
      const close = source.indexOf(":]", j + 2);
      if (close !== -1) j = close + 1;
    }
  }
  return source.length - 1;
}
