import { type Dirent, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import {
  findImports,
  type ImportRef,
  lineAt,
  maskSource,
  namedBindings,
  namespaceBinding,
} from "./import-specifiers.js";

/** One broken dependency rule: where, which rule, and what was found. */
export interface Violation {
  /** Path relative to the checked root, with `/` separators. */
  file: string;
  line: number;
  rule: string;
  detail: string;
}

/** The checks of the dependency rule, by name; a-d label the rules, each stated on its entry. */
export const RULES = {
  /** a. The core imports no web framework, HTTP server, database driver, nor another of our packages. */
  coreForbiddenImport: "core-forbidden-import",
  /** a. The core reaches outside `packages/core/src` only through package names. */
  coreRelativeEscape: "core-relative-escape",
  /** e. A core module imports only itself and the modules below it (CORE_MODULE_ORDER). */
  coreModuleDirection: "core-module-direction",
  /** b. tsyringe's global container: imported only in kernel/platform.ts, used only to create a child. */
  coreGlobalContainer: "core-global-container",
  /** c. An adapter never imports another adapter nor the CLI. */
  adapterCrossImport: "adapter-cross-import",
  /** c. An adapter reaches outside its own package only through package names. */
  adapterRelativeEscape: "adapter-relative-escape",
  /** c. An adapter imports the core only through a subpath the core's package.json exports. */
  adapterCoreInternal: "adapter-core-internal",
  /** c. An adapter's shipped code (`src`) never imports its `test-support` (test doubles, suites). */
  adapterImportsTestSupport: "adapter-imports-test-support",
  /** d. The browser SDK takes only types from the core (erased at build), nothing else of ours. */
  sdkBrowserValueImport: "sdk-browser-value-import",
  /** d. The browser SDK imports no Node built-in (`node:*`). */
  sdkBrowserNodeBuiltin: "sdk-browser-node-builtin",
  /** d. The browser SDK reaches outside its own package only through package names. */
  sdkBrowserRelativeEscape: "sdk-browser-relative-escape",
} as const;

/** Modules the core must not import (a module or any of its subpaths). */
const CORE_FORBIDDEN_MODULES = [
  "h3",
  "mongodb",
  "node:http",
  "node:https",
  "node:http2",
  "http",
  "https",
  "http2",
  "srvx",
  "express",
  "fastify",
  "@keyward/cli",
  "@keyward/sdk-browser",
];
const ADAPTER_PREFIX = "@keyward/adapters-";
/**
 * The core's modules, lowest first: each may import itself and the ones before it, never one after
 * it (type-only imports included). Files directly under `packages/core/src` (the subpath entry
 * points) may import every module. A new module takes its place here.
 */
export const CORE_MODULE_ORDER = [
  "kernel",
  "web",
  "identity",
  "mfa",
  "factors",
  "authz",
  "resources",
  "policy-center",
  "prompts",
  "decisions",
  "governance",
  "inspection",
] as const;
/** The one file allowed to import tsyringe's global container. */
const PLATFORM_FILE = "packages/core/src/kernel/platform.ts";
const SOURCE_FILE = /\.(ts|tsx|mts|cts)$/;
const TEST_FILE = /\.test\.(ts|tsx|mts|cts)$/;
const SKIPPED_DIRS = new Set(["node_modules", "fixtures"]);

/** Result of a run: the violations and how many files were read. */
export interface DependencyRulesReport {
  violations: Violation[];
  filesChecked: number;
}

/** The folders of a package whose sources are checked: shipped code, and test support kept beside it. */
const CHECKED_DIRS = ["src", "test-support"] as const;

/**
 * Checks every `packages/*\/{src,test-support}/**\/*.ts` under rootDir (fixtures and node_modules
 * skipped).
 */
export function checkDependencyRules(rootDir: string): Violation[] {
  return runDependencyRules(rootDir).violations;
}

/** Same as checkDependencyRules, also telling how many files were checked. */
export function runDependencyRules(rootDir: string): DependencyRulesReport {
  const root = resolve(rootDir);
  const packagesDir = join(root, "packages");
  const violations: Violation[] = [];
  let filesChecked = 0;
  const coreSubpaths = publicCoreSubpaths(root);
  for (const pkg of listDirs(packagesDir)) {
    for (const dir of CHECKED_DIRS) {
      for (const file of listSourceFiles(join(packagesDir, pkg, dir))) {
        filesChecked++;
        const rel = relative(root, file).split(sep).join("/");
        const text = readFileSync(file, "utf8");
        violations.push(...checkFile({ root, pkg, dir, file, rel, text, coreSubpaths }));
      }
    }
  }
  violations.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.rule.localeCompare(b.rule));
  return { violations, filesChecked };
}

/** Renders violations one per line: `file:line  rule  detail`. */
export function formatViolations(violations: Violation[]): string {
  return violations.map((v) => `${v.file}:${v.line}  ${v.rule}  ${v.detail}`).join("\n");
}

interface SourceFile {
  root: string;
  /** Folder name under packages/ (`core`, `adapters-http`, ...). */
  pkg: string;
  /** `src` or `test-support`. */
  dir: (typeof CHECKED_DIRS)[number];
  file: string;
  rel: string;
  text: string;
  /** `@keyward/core` and its exported subpaths, or undefined when the core has no package.json. */
  coreSubpaths: ReadonlySet<string> | undefined;
}

/** `@keyward/core` plus every subpath of the core's `exports` (undefined without a package.json). */
function publicCoreSubpaths(root: string): ReadonlySet<string> | undefined {
  let exports: unknown;
  try {
    exports = JSON.parse(readFileSync(join(root, "packages", "core", "package.json"), "utf8")).exports;
  } catch {
    return undefined;
  }
  if (exports === null || typeof exports !== "object") return new Set(["@keyward/core"]);
  return new Set(
    Object.keys(exports).map((k) => (k === "." ? "@keyward/core" : `@keyward/core/${k.slice(2)}`)),
  );
}

function checkFile(src: SourceFile): Violation[] {
  const imports = findImports(src.text);
  const found: Violation[] = [];
  const report = (ref: ImportRef | { line: number }, rule: string, detail: string) =>
    found.push({ file: src.rel, line: ref.line, rule, detail });

  if (src.pkg === "core") {
    const srcRoot = join(src.root, "packages", "core", "src");
    for (const ref of imports) {
      if (
        CORE_FORBIDDEN_MODULES.some((m) => isModule(ref.specifier, m)) ||
        ref.specifier.startsWith(ADAPTER_PREFIX)
      ) {
        report(ref, RULES.coreForbiddenImport, `imports "${ref.specifier}"`);
      }
      if (escapes(src.file, ref.specifier, srcRoot)) {
        report(ref, RULES.coreRelativeEscape, `"${ref.specifier}" leaves packages/core/src`);
      }
      const upward = upwardImport(src.file, ref.specifier, srcRoot);
      if (upward) report(ref, RULES.coreModuleDirection, upward);
    }
    found.push(...checkGlobalContainer(src, imports));
  } else if (src.pkg.startsWith("adapters-")) {
    const own = `@keyward/${src.pkg}`;
    const pkgRoot = join(src.root, "packages", src.pkg);
    for (const ref of imports) {
      const s = ref.specifier;
      if ((s.startsWith(ADAPTER_PREFIX) && !isModule(s, own)) || isModule(s, "@keyward/cli")) {
        report(ref, RULES.adapterCrossImport, `imports "${s}"`);
      }
      if (escapes(src.file, s, pkgRoot))
        report(ref, RULES.adapterRelativeEscape, `"${s}" leaves packages/${src.pkg}`);
      if (isModule(s, "@keyward/core") && src.coreSubpaths && !src.coreSubpaths.has(s)) {
        report(ref, RULES.adapterCoreInternal, `imports "${s}", not a subpath the core exports`);
      }
      const shipped = src.dir === "src" && !TEST_FILE.test(src.file);
      if (
        shipped &&
        (isModule(s, `${own}/testing`) || isInside(src.file, s, join(pkgRoot, "test-support")))
      ) {
        report(ref, RULES.adapterImportsTestSupport, `"${s}": test support is not shipped code`);
      }
    }
  } else if (src.pkg === "sdk-browser") {
    const pkgRoot = join(src.root, "packages", "sdk-browser");
    for (const ref of imports) {
      const s = ref.specifier;
      if (isModule(s, "@keyward/core") && !ref.typeOnly) {
        report(ref, RULES.sdkBrowserValueImport, `value import of "${s}": use \`import type\``);
      } else if (
        s.startsWith("@keyward/") &&
        !isModule(s, "@keyward/core") &&
        !isModule(s, "@keyward/sdk-browser")
      ) {
        report(ref, RULES.sdkBrowserValueImport, `imports "${s}": server code in the browser bundle`);
      }
      if (s.startsWith("node:")) report(ref, RULES.sdkBrowserNodeBuiltin, `imports "${s}"`);
      if (escapes(src.file, s, pkgRoot))
        report(ref, RULES.sdkBrowserRelativeEscape, `"${s}" leaves packages/sdk-browser`);
    }
  }
  // cli (and any other package) composes everything: no rule.
  return found;
}

/**
 * Rule b: the global `container` of tsyringe is imported in kernel/platform.ts only, and there every use
 * of the imported name is `<name>.createChildContainer(`. A namespace import (`ns.container`), a
 * re-export, or a run-time `import()`/`require()` of tsyringe would hide the container from this
 * check, so they are violations too.
 */
function checkGlobalContainer(src: SourceFile, imports: ImportRef[]): Violation[] {
  const found: Violation[] = [];
  const report = (line: number, detail: string) =>
    found.push({ file: src.rel, line, rule: RULES.coreGlobalContainer, detail });
  const isPlatformFile = src.rel === PLATFORM_FILE;
  const locals: { name: string; ref: ImportRef }[] = [];
  const namespaces: string[] = [];

  for (const ref of imports) {
    if (ref.specifier !== "tsyringe" || ref.typeOnly) continue;
    if (ref.kind === "dynamic" || ref.kind === "require") {
      report(
        ref.line,
        `run-time ${ref.kind === "require" ? "require" : "import"} of "tsyringe": import it statically`,
      );
      continue;
    }
    const bindings = namedBindings(ref.clause).filter((b) => b.imported === "container" && !b.typeOnly);
    if (ref.kind === "export") {
      if (bindings.length > 0 || ref.clause.startsWith("*"))
        report(ref.line, "re-exports tsyringe's global container");
      continue;
    }
    const ns = namespaceBinding(ref.clause);
    if (ns) namespaces.push(ns);
    for (const b of bindings) {
      if (isPlatformFile) locals.push({ name: b.local, ref });
      else report(ref.line, `imports tsyringe's global \`container\` outside ${PLATFORM_FILE}`);
    }
  }
  if (locals.length === 0 && namespaces.length === 0) return found;

  // Look at code only (comments and strings blanked) and skip the import statements themselves.
  const code = blankRanges(maskSource(src.text).code, imports);
  for (const ns of namespaces) {
    for (const m of code.matchAll(
      new RegExp(`(?<![\\w$.])${escapeRegex(ns)}\\s*\\.\\s*container(?![\\w$])`, "g"),
    )) {
      report(lineAt(code, m.index), `uses tsyringe's global container through \`${ns}.container\``);
    }
  }
  for (const { name } of locals) {
    for (const m of code.matchAll(new RegExp(`(?<![\\w$.])${escapeRegex(name)}(?![\\w$])`, "g"))) {
      const after = code.slice(m.index + name.length);
      if (/^\s*\.\s*createChildContainer\s*\(/.test(after)) continue;
      if (isPropertyKey(code, m.index, after)) continue;
      const call = /^\s*\.\s*([\w$]+)/.exec(after)?.[1];
      report(
        lineAt(code, m.index),
        call
          ? `calls \`${name}.${call}\` on tsyringe's global container`
          : `uses tsyringe's global container as \`${name}\``,
      );
    }
  }
  return found;
}

/** `name:` as an object key or type member is not a use of the binding (`{ container: c }`). */
function isPropertyKey(code: string, index: number, after: string): boolean {
  if (!/^\s*\??\s*:(?!:)/.test(after)) return false;
  const before = code.slice(0, index).trimEnd();
  return before === "" || /[{,;(]$/.test(before) || /(?<![\w$])readonly$/.test(before);
}

function blankRanges(code: string, refs: ImportRef[]): string {
  let out = code;
  for (const r of refs) {
    out = out.slice(0, r.start) + out.slice(r.start, r.end).replace(/[^\n]/g, " ") + out.slice(r.end);
  }
  return out;
}

function escapeRegex(s: string): string {
  return s.replace(/[$.*+?^()[\]{}|\\]/g, "\\$&");
}

/** The module (first folder under the core's src) of a file, or undefined for an entry-point file. */
function coreModuleOf(file: string, srcRoot: string): string | undefined {
  const parts = relative(srcRoot, file).split(sep);
  return parts.length > 1 ? parts[0] : undefined;
}

/** Why a relative import goes up the module order (or into an unlisted module), else undefined. */
function upwardImport(file: string, specifier: string, srcRoot: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const from = coreModuleOf(file, srcRoot);
  if (from === undefined) return undefined;
  const target = resolve(dirname(file), specifier);
  const rel = relative(srcRoot, target);
  if (rel === ".." || rel.startsWith(`..${sep}`)) return undefined; // coreRelativeEscape reports it
  const to = coreModuleOf(target, srcRoot);
  const order: readonly string[] = CORE_MODULE_ORDER;
  if (!order.includes(from))
    return `module "${from}" is not in CORE_MODULE_ORDER (scripts/dependency-rules.ts)`;
  if (to === undefined) return `${from} imports the entry point "${specifier}"`;
  if (!order.includes(to)) return `imports module "${to}", which is not in CORE_MODULE_ORDER`;
  return order.indexOf(to) > order.indexOf(from)
    ? `${from} imports ${to} ("${specifier}"), a module above it`
    : undefined;
}

/** `h3` matches `h3` and `h3/utils`, not `h3x`. */
function isModule(specifier: string, module: string): boolean {
  return specifier === module || specifier.startsWith(`${module}/`);
}

/** A relative specifier that resolves outside `boundary`. */
function escapes(file: string, specifier: string, boundary: string): boolean {
  if (
    !specifier.startsWith("./") &&
    !specifier.startsWith("../") &&
    specifier !== "." &&
    specifier !== ".."
  ) {
    return false;
  }
  const target = resolve(dirname(file), specifier);
  const rel = relative(boundary, target);
  return rel === ".." || rel.startsWith(`..${sep}`);
}

/** A relative specifier that resolves inside `folder`. */
function isInside(file: string, specifier: string, folder: string): boolean {
  if (!specifier.startsWith(".")) return false;
  const rel = relative(folder, resolve(dirname(file), specifier));
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith(sep));
}

function listDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !SKIPPED_DIRS.has(d.name))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

function listSourceFiles(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIPPED_DIRS.has(e.name)) files.push(...listSourceFiles(full));
    } else if (e.isFile() && SOURCE_FILE.test(e.name)) {
      files.push(full);
    }
  }
  return files;
}
