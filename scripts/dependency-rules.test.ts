import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkDependencyRules, formatViolations, RULES, runDependencyRules } from "./dependency-rules.js";
import { findImports, namedBindings } from "./import-specifiers.js";

const here = dirname(fileURLToPath(import.meta.url));
const fixture = (name: string) => join(here, "fixtures", "dependency-rules", name);

describe("checkDependencyRules on fixture trees", () => {
  it("passes a clean tree (type-only imports, comments, strings, fixtures folders, cli composing all, test support)", () => {
    const report = runDependencyRules(fixture("clean"));
    expect(report.violations).toEqual([]);
    // The file under core/src/fixtures is skipped.
    expect(report.filesChecked).toBe(11);
  });

  const cases: { name: string; file: string; line: number; rule: string; detail: RegExp }[] = [
    {
      name: "core-imports-h3",
      file: "packages/core/src/web/server.ts",
      line: 2,
      rule: RULES.coreForbiddenImport,
      detail: /"h3"/,
    },
    {
      name: "core-imports-node-http",
      file: "packages/core/src/web/listen.ts",
      line: 2,
      rule: RULES.coreForbiddenImport,
      detail: /"node:http"/,
    },
    {
      name: "core-container-outside-platform",
      file: "packages/core/src/identity/users.ts",
      line: 2,
      rule: RULES.coreGlobalContainer,
      detail: /outside packages\/core\/src\/kernel\/platform\.ts/,
    },
    {
      name: "core-container-register",
      file: "packages/core/src/kernel/platform.ts",
      line: 5,
      rule: RULES.coreGlobalContainer,
      detail: /container\.register/,
    },
    {
      name: "core-multiline-mongodb",
      file: "packages/core/src/identity/user-store.ts",
      line: 2,
      rule: RULES.coreForbiddenImport,
      detail: /"mongodb"/,
    },
    {
      name: "core-dynamic-h3",
      file: "packages/core/src/web/lazy.ts",
      line: 3,
      rule: RULES.coreForbiddenImport,
      detail: /"h3"/,
    },
    {
      name: "core-relative-escape",
      file: "packages/core/src/kernel/reach.ts",
      line: 1,
      rule: RULES.coreRelativeEscape,
      detail: /leaves packages\/core\/src/,
    },
    {
      name: "core-module-upward",
      file: "packages/core/src/identity/login.ts",
      line: 2,
      rule: RULES.coreModuleDirection,
      detail: /identity imports mfa/,
    },
    {
      name: "adapter-imports-adapter",
      file: "packages/adapters-mongo/src/index.ts",
      line: 2,
      rule: RULES.adapterCrossImport,
      detail: /"@keyward\/adapters-http"/,
    },
    {
      name: "adapter-core-internal",
      file: "packages/adapters-mongo/src/index.ts",
      line: 2,
      rule: RULES.adapterCoreInternal,
      detail: /"@keyward\/core\/src\/identity\/in-memory-users\.js", not a subpath the core exports/,
    },
    {
      name: "adapter-imports-test-support",
      file: "packages/adapters-mongo/src/index.ts",
      line: 2,
      rule: RULES.adapterImportsTestSupport,
      detail: /test support is not shipped code/,
    },
    {
      name: "sdk-browser-value-import",
      file: "packages/sdk-browser/src/index.ts",
      line: 2,
      rule: RULES.sdkBrowserValueImport,
      detail: /import type/,
    },
    {
      name: "sdk-browser-node-builtin",
      file: "packages/sdk-browser/src/hash.ts",
      line: 1,
      rule: RULES.sdkBrowserNodeBuiltin,
      detail: /"node:crypto"/,
    },
  ];

  for (const c of cases) {
    it(`fails ${c.name} with ${c.rule} at ${c.file}:${c.line}`, () => {
      const violations = checkDependencyRules(fixture(c.name));
      expect(violations).toEqual([
        { file: c.file, line: c.line, rule: c.rule, detail: expect.stringMatching(c.detail) },
      ]);
    });
  }

  it("formats one violation per line", () => {
    const text = formatViolations(checkDependencyRules(fixture("core-imports-h3")));
    expect(text).toBe('packages/core/src/web/server.ts:2  core-forbidden-import  imports "h3"');
  });

  it("finds nothing to check under a root without packages", () => {
    expect(runDependencyRules(join(here, "no-such-dir"))).toEqual({ violations: [], filesChecked: 0 });
  });
});

describe("findImports", () => {
  it("reads every form of module reference with its statement line", () => {
    const src = [
      'import a from "a";',
      "import type { B } from 'b';",
      "import {",
      "  c1,",
      "  type c2, // comment",
      '} from "c";',
      'import "d";',
      'export * from "e";',
      'export type { F } from "f";',
      'const g = await import("g");',
      'const h = require("h");',
      'type I = import("i").I;',
      'const j = import("j").then((m) => m);',
    ].join("\n");
    expect(findImports(src).map((r) => [r.kind, r.specifier, r.line, r.typeOnly])).toEqual([
      ["import", "a", 1, false],
      ["import", "b", 2, true],
      ["import", "c", 3, false],
      ["import", "d", 7, false],
      ["export", "e", 8, false],
      ["export", "f", 9, true],
      ["dynamic", "g", 10, false],
      ["require", "h", 11, false],
      ["dynamic", "i", 12, true],
      ["dynamic", "j", 13, false],
    ]);
  });

  it("ignores imports inside comments, strings, templates and regex literals", () => {
    const src = [
      '// import x from "h3";',
      '/* require("mongodb") */',
      "const s = 'import y from \"express\"';",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: this is source text for the scanner
      'const t = `import("h3") ${s ? `require("http")` : ""} import "srvx"`;',
      'const r = /import z from "fastify"/;',
      "const ok = 4 / 2;",
      'import real from "real";',
    ].join("\n");
    expect(findImports(src).map((r) => [r.specifier, r.line])).toEqual([["real", 7]]);
  });

  it("parses named bindings with aliases and type modifiers", () => {
    expect(namedBindings("{ container as root, type DependencyContainer, inject }")).toEqual([
      { imported: "container", local: "root", typeOnly: false },
      { imported: "DependencyContainer", local: "DependencyContainer", typeOnly: true },
      { imported: "inject", local: "inject", typeOnly: false },
    ]);
  });
});

describe("the repository itself", () => {
  it("keeps the dependency rule", () => {
    const root = resolve(here, "..");
    const report = runDependencyRules(root);
    expect(formatViolations(report.violations)).toBe("");
    expect(report.filesChecked).toBeGreaterThan(0);
  });
});
