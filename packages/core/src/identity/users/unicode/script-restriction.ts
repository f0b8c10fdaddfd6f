import { SCRIPT_NAMES } from "./unicode-tables.generated.js";
import type { UsernameProblem } from "./username-problem.js";

/** Characters every script shares (digits, ASCII punctuation, combining marks): they count for none. */
const SHARED = /^[\p{scx=Common}\p{scx=Inherited}]$/u;
/** The script sets UTS #39 "Highly Restrictive" lets Latin combine with (section 5.2). */
const COVERING_SETS = [
  ["Latin", "Han", "Hiragana", "Katakana"],
  ["Latin", "Han", "Bopomofo"],
  ["Latin", "Han", "Hangul"],
].map((set) => new RegExp(`^[${set.map((name) => `\\p{scx=${name}}`).join("")}]$`, "u"));

let scriptTests: readonly (readonly [string, RegExp])[] | undefined;

/** One single-code-point test per script the runtime knows (a name it does not know is skipped). */
function scripts(): readonly (readonly [string, RegExp])[] {
  if (scriptTests) return scriptTests;
  const tests: [string, RegExp][] = [];
  for (const name of SCRIPT_NAMES) {
    if (name === "Common" || name === "Inherited") continue;
    try {
      tests.push([name, new RegExp(`^\\p{scx=${name}}$`, "u")]);
    } catch {}
  }
  scriptTests = tests;
  return tests;
}

/**
 * UTS #39 restriction level "Highly Restrictive" (section 5.2) by Script_Extensions: every character
 * that belongs to a script shares one script, or all of them fall in Latin+Han+Hiragana+Katakana,
 * Latin+Han+Bopomofo or Latin+Han+Hangul. So a Japanese name passes and Latin mixed with Cyrillic
 * does not. The identifier profile the level presumes is the PRECIS check that runs before it.
 */
export function mixedScriptProblem(s: string): UsernameProblem | undefined {
  const chars = [...s].filter((ch) => !SHARED.test(ch));
  const [first, ...rest] = chars;
  if (first === undefined) return undefined;
  let shared = scripts().filter(([, test]) => test.test(first));
  for (const ch of rest) {
    if (shared.length === 0) break;
    shared = shared.filter(([, test]) => test.test(ch));
  }
  if (shared.length > 0) return undefined;
  if (COVERING_SETS.some((set) => chars.every((ch) => set.test(ch)))) return undefined;
  return {
    rule: "mixed-script",
    message:
      `must be written in one script, found ${scriptsNamed(chars).join(", ")} (UTS #39 Highly Restrictive: ` +
      "Latin may join Han with Hiragana and Katakana, with Bopomofo or with Hangul)",
  };
}

/** The first script of each character, in order of appearance (for the message). */
function scriptsNamed(chars: readonly string[]): string[] {
  const names = new Set<string>();
  for (const ch of chars) {
    const found = scripts().find(([, test]) => test.test(ch));
    if (found) names.add(found[0]);
  }
  return [...names];
}
