import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as adapterKit from "./adapter-kit.js";
import * as authz from "./authz/index.js";
import * as decisions from "./decisions/index.js";
import * as errors from "./errors.js";
import * as governance from "./governance/index.js";
import * as identity from "./identity/index.js";
import * as root from "./index.js";
import * as mfa from "./mfa/index.js";
import * as ports from "./ports.js";
import * as prompts from "./prompts/index.js";
import * as testing from "./testing.js";
import * as web from "./web/index.js";
import * as wire from "./web/wire/index.js";

const SUBPATHS = [
  ["@keyward/core", root],
  ["@keyward/core/ports", ports],
  ["@keyward/core/adapter-kit", adapterKit],
  ["@keyward/core/web", web],
  ["@keyward/core/wire", wire],
  ["@keyward/core/identity", identity],
  ["@keyward/core/mfa", mfa],
  ["@keyward/core/authz", authz],
  ["@keyward/core/prompts", prompts],
  ["@keyward/core/decisions", decisions],
  ["@keyward/core/governance", governance],
  ["@keyward/core/errors", errors],
  ["@keyward/core/testing", testing],
] as const;

function kindOf(value: unknown): string {
  if (typeof value === "function") {
    return /^class[\s{]/.test(Function.prototype.toString.call(value)) ? "class" : "function";
  }
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * The most names (values and types, each counted once per subpath) the subpaths may export together:
 * half of issue 26's baseline of 665. `pnpm report:surface` counts the same with the type checker.
 */
const MAX_PUBLIC_NAMES = 332;

interface EntryNames {
  /** Every name the entry point exports, values and types. */
  names: string[];
  /** `export *` declarations, which would hide names from this count. */
  starExports: number;
}

/**
 * The names an entry point exports, read from its syntax (no type checking, so it runs in
 * milliseconds): every `export { … } from`, `export type { … }` and exported declaration.
 */
function entryNames(file: string): EntryNames {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const names: string[] = [];
  let starExports = 0;
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (statement.exportClause === undefined || !ts.isNamedExports(statement.exportClause)) starExports++;
      else names.push(...statement.exportClause.elements.map((element) => element.name.text));
    } else if (ts.canHaveModifiers(statement)) {
      const exported = ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      const name = (statement as { name?: ts.Identifier }).name;
      if (exported && name !== undefined) names.push(name.text);
    }
  }
  return { names, starExports };
}

/** Every subpath of package.json `exports` with the names its entry point exports. */
function namesBySubpath(): [string, EntryNames][] {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    exports: Record<string, string>;
  };
  return Object.entries(manifest.exports).map(([subpath, file]) => [
    `@keyward/core${subpath.slice(1)}`,
    entryNames(new URL(`../${file}`, import.meta.url).pathname),
  ]);
}

// What a subpath exports, with its type, is pinned by docs/api/core.api.md (`pnpm report:surface`
// compares it with the code in CI); these check the rules the report does not show.
describe("@keyward/core subpaths: what they may export", () => {
  it("every port token in /ports is a symbol named after its port (`platform.<Name>`)", () => {
    const tokens = Object.entries(ports).filter(([, v]) => typeof v === "symbol");
    expect(tokens.length).toBeGreaterThan(30);
    for (const [name, token] of tokens) {
      expect((token as symbol).description).toBe(`platform.${name}`);
    }
  });

  it("lists every subpath package.json exports, and no other", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      exports: Record<string, string>;
    };
    const exported = Object.keys(manifest.exports).map((key) => `@keyward/core${key.slice(1)}`);
    expect(exported.sort()).toEqual(SUBPATHS.map(([name]) => name).sort());
  });

  it("keeps internals and test doubles out of every subpath but /testing", () => {
    const internal = [
      /^setCurrentAuthentication$/,
      /^CompiledPolicySet$/,
      /^ZEROTRUST_/,
      /^ManualClock$/,
      /^Counting/,
      /Filter$/,
      /_PROPERTIES$/,
      /^[A-Z]\w*Token$/,
      /^InMemory/,
    ];
    for (const [name, mod] of SUBPATHS) {
      if (name === "@keyward/core/testing") continue;
      const leaked = Object.keys(mod).filter((key) => internal.some((pattern) => pattern.test(key)));
      expect({ name, leaked }).toEqual({ name, leaked: [] });
    }
  });

  it("/ports exports no implementation of ours (no class)", () => {
    const classes = Object.entries(ports).filter(([, value]) => kindOf(value) === "class");
    expect(classes.map(([name]) => name)).toEqual([]);
  });

  it("/ports exports tokens and the value objects port signatures take, no helper (those are in /adapter-kit)", () => {
    const notTokens = Object.entries(ports).filter(([, value]) => typeof value !== "symbol");
    expect(notTokens.map(([name]) => name)).toEqual(["MfaDecision"]);
  });
});

describe("@keyward/core subpaths: one home per name, a bounded surface", () => {
  const subpaths = namesBySubpath();

  it("every entry point lists its names one by one (no `export *`), so the counts below are exact", () => {
    const starred = subpaths.filter(([, entry]) => entry.starExports > 0).map(([name]) => name);
    expect(starred).toEqual([]);
  });

  it("reads the same value names from the syntax as the modules export at run time", () => {
    for (const [name, mod] of SUBPATHS) {
      const entry = subpaths.find(([subpath]) => subpath === name)?.[1];
      expect(entry?.names).toEqual(expect.arrayContaining(Object.keys(mod)));
    }
  });

  it("exports no name, value or type, from two subpaths", () => {
    const homes = new Map<string, string[]>();
    for (const [subpath, { names }] of subpaths) {
      for (const name of new Set(names)) homes.set(name, [...(homes.get(name) ?? []), subpath]);
    }
    const twice = [...homes].filter(([, where]) => where.length > 1);
    expect(twice).toEqual([]);
  });

  it(`exports at most ${MAX_PUBLIC_NAMES} names, values and types, across its subpaths`, () => {
    const total = subpaths.reduce((sum, [, { names }]) => sum + new Set(names).size, 0);
    expect(total).toBeLessThanOrEqual(MAX_PUBLIC_NAMES);
  });
});
