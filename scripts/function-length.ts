// Measures the functions of packages/core with the TypeScript compiler API and compares them with a
// baseline of the ones allowed to be long today, so that list can only shrink.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts from "typescript";

/** Longest body, in lines, a core function may have. */
export const MAX_FUNCTION_LINES = 80;

/** Folders under packages/core/src that are never measured. */
const SKIPPED_DIRS = new Set(["node_modules", "fixtures", "__snapshots__"]);

/** Test code, exempt from the limit: tests, contract suites, test-support and fixture modules. */
const EXEMPT_FILE = /(\.test|\.contract|\.test-support|\.fixture)\.ts$|(^|\/)test-context\.ts$/;

/** One function, method, arrow function or function expression and the length of its body. */
export interface FunctionLength {
  /** Path relative to the root, with `/` separators. */
  file: string;
  /** Stable name within the file: enclosing names joined by ` > ` (see `functionName`). */
  name: string;
  /** 1-based line where the body starts. */
  line: number;
  /** Lines the body spans, first and last included. */
  lines: number;
}

/** A function allowed to exceed the limit, at most by the length it had when it was listed. */
export interface BaselineEntry {
  file: string;
  function: string;
  lines: number;
}

/** The baseline file: the long functions that existed when the check was introduced. */
export interface Baseline {
  /** Why the file exists and how it may change (JSON has no comments). */
  description?: string;
  entries: BaselineEntry[];
}

/** What the check found; `newOffenders` and `grown` fail it, the rest only remind. */
export interface FunctionLengthReport {
  filesChecked: number;
  /** Over the limit and not in the baseline. */
  newOffenders: FunctionLength[];
  /** In the baseline and longer than listed. */
  grown: { entry: BaselineEntry; now: FunctionLength }[];
  /** In the baseline, still over the limit, but shorter than listed: lower the number. */
  shrunk: { entry: BaselineEntry; now: FunctionLength }[];
  /** In the baseline and now within the limit, or gone: remove the entry. */
  resolved: { entry: BaselineEntry; now: FunctionLength | undefined }[];
}

/** True when the report has no new offender and no grown entry. */
export function passes(report: FunctionLengthReport): boolean {
  return report.newOffenders.length === 0 && report.grown.length === 0;
}

/** Every measured file under `<root>/packages/core/src`, relative to root, sorted. */
export function coreSourceFiles(rootDir: string): string[] {
  const srcDir = join(rootDir, "packages", "core", "src");
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(join(dir, entry.name));
        continue;
      }
      const file = relative(rootDir, join(dir, entry.name)).split(sep).join("/");
      if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") && !EXEMPT_FILE.test(file)) {
        found.push(file);
      }
    }
  };
  walk(srcDir);
  return found.sort();
}

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration
  | ts.ArrowFunction
  | ts.FunctionExpression;

function isFunctionNode(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

/** The text of a property or declaration name (`foo`, `"foo"`, `[computed]`, `#private`). */
function nameText(name: ts.PropertyName | ts.BindingName | undefined, source: ts.SourceFile): string {
  if (!name) return "<anonymous>";
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return name.getText(source);
}

/** `Owner.` for a member of a named class or object literal; empty for an anonymous object literal. */
function ownerPrefix(container: ts.Node, source: ts.SourceFile): string {
  if (ts.isClassLike(container)) return `${container.name ? container.name.text : "<class>"}.`;
  const holder = container.parent;
  if (holder && ts.isVariableDeclaration(holder)) return `${nameText(holder.name, source)}.`;
  if (holder && ts.isPropertyAssignment(holder)) return `${nameText(holder.name, source)}.`;
  return "";
}

/** `callee callback`, with the first argument when it is a string (`ctx.onStart("keys") callback`). */
function callbackName(call: ts.CallExpression | ts.NewExpression, source: ts.SourceFile): string {
  const callee = call.expression.getText(source).replace(/\s+/g, "");
  const first = call.arguments?.[0];
  const label = first && ts.isStringLiteralLike(first) ? `(${JSON.stringify(first.text)})` : "";
  return `${callee}${label} callback`;
}

/**
 * The local name of a function: its declared name; `Class.method` for class members (constructors
 * and accessors included); `object.key` for methods and functions in an object literal held by a
 * variable or property (just `key` in an anonymous one); the variable it is assigned to; for a
 * function passed to a call, the callee and its first argument when that is a string
 * (`ctx.onStart("keys") callback`, `items.map callback`); `<anonymous>` otherwise.
 */
export function functionName(node: FunctionNode, source: ts.SourceFile): string {
  const parent = node.parent;
  if (ts.isFunctionDeclaration(node)) return node.name ? node.name.text : "<default>";
  if (ts.isConstructorDeclaration(node)) return `${ownerPrefix(parent, source)}constructor`;
  if (
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  ) {
    const prefix = ts.isGetAccessorDeclaration(node)
      ? "get "
      : ts.isSetAccessorDeclaration(node)
        ? "set "
        : "";
    return `${ownerPrefix(parent, source)}${prefix}${nameText(node.name, source)}`;
  }
  if (ts.isFunctionExpression(node) && node.name) return node.name.text;
  if (ts.isVariableDeclaration(parent)) return nameText(parent.name, source);
  if (ts.isPropertyDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return `${ownerPrefix(parent.parent, source)}${nameText(parent.name, source)}`;
  }
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) return callbackName(parent, source);
  return "<anonymous>";
}

/**
 * Every function in one source text with its body length. Names are qualified by the enclosing
 * functions (`outer > inner`); a name repeated in one file gets `#2`, `#3`, … in source order.
 * Declarations without a body (overloads, abstract members) are skipped.
 */
export function measureFunctions(file: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: FunctionLength[] = [];
  const seen = new Map<string, number>();
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;

  const visit = (node: ts.Node, enclosing: string[]): void => {
    let inner = enclosing;
    if (isFunctionNode(node) && node.body) {
      const local = functionName(node, source);
      const qualified = [...enclosing, local].join(" > ");
      const count = (seen.get(qualified) ?? 0) + 1;
      seen.set(qualified, count);
      const name = count === 1 ? qualified : `${qualified} #${count}`;
      const first = lineOf(node.body.getStart(source));
      const last = lineOf(node.body.getEnd());
      found.push({ file, name, line: first, lines: last - first + 1 });
      inner = [...enclosing, local];
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(source, []);
  return found;
}

/** Measures every core source file under rootDir. */
export function measureCore(rootDir: string): { files: string[]; functions: FunctionLength[] } {
  const files = coreSourceFiles(rootDir);
  const functions = files.flatMap((file) =>
    measureFunctions(file, readFileSync(join(rootDir, file), "utf8")),
  );
  return { files, functions };
}

/** Compares measured functions with the baseline. */
export function compareWithBaseline(
  functions: readonly FunctionLength[],
  baseline: Baseline,
  filesChecked: number,
  limit = MAX_FUNCTION_LINES,
): FunctionLengthReport {
  const key = (file: string, name: string) => `${file}\u0000${name}`;
  const listed = new Map(baseline.entries.map((entry) => [key(entry.file, entry.function), entry]));
  const measured = new Map(functions.map((fn) => [key(fn.file, fn.name), fn]));
  const report: FunctionLengthReport = {
    filesChecked,
    newOffenders: [],
    grown: [],
    shrunk: [],
    resolved: [],
  };

  for (const fn of functions) {
    if (fn.lines > limit && !listed.has(key(fn.file, fn.name))) report.newOffenders.push(fn);
  }
  for (const entry of baseline.entries) {
    const now = measured.get(key(entry.file, entry.function));
    if (!now || now.lines <= limit) report.resolved.push({ entry, now });
    else if (now.lines > entry.lines) report.grown.push({ entry, now });
    else if (now.lines < entry.lines) report.shrunk.push({ entry, now });
  }
  return report;
}

/** Reads and validates a baseline file; a malformed one throws with the reason. */
export function readBaseline(path: string): Baseline {
  const data: unknown = JSON.parse(readFileSync(path, "utf8"));
  const entries = (data as { entries?: unknown }).entries;
  if (!Array.isArray(entries)) throw new Error(`${path}: expected { "entries": [...] }`);
  for (const [i, entry] of entries.entries()) {
    const e = entry as Partial<BaselineEntry>;
    if (typeof e.file !== "string" || typeof e.function !== "string" || !Number.isInteger(e.lines)) {
      throw new Error(`${path}: entries[${i}] needs "file" (string), "function" (string), "lines" (integer)`);
    }
  }
  const description = (data as { description?: unknown }).description;
  return {
    ...(typeof description === "string" ? { description } : {}),
    entries: entries as BaselineEntry[],
  };
}

/** The baseline that only keeps what is still over the limit, each at its current (lower) length. */
export function prunedBaseline(report: FunctionLengthReport, baseline: Baseline): Baseline {
  const gone = new Set(report.resolved.map((r) => r.entry));
  const lowered = new Map(report.shrunk.map((s) => [s.entry, s.now.lines]));
  return {
    ...baseline,
    entries: baseline.entries
      .filter((entry) => !gone.has(entry))
      .map((entry) => ({ ...entry, lines: lowered.get(entry) ?? entry.lines })),
  };
}

/** Human-readable lines for a report: failures first, then reminders. */
export function formatReport(report: FunctionLengthReport, limit = MAX_FUNCTION_LINES): string[] {
  const out: string[] = [];
  for (const fn of report.newOffenders) {
    out.push(`NEW  ${fn.file}:${fn.line} ${fn.name}: ${fn.lines} lines (limit ${limit}); split it`);
  }
  for (const { entry, now } of report.grown) {
    out.push(
      `GREW ${entry.file}:${now.line} ${entry.function}: ${now.lines} lines, baseline ${entry.lines}; shorten it`,
    );
  }
  for (const { entry, now } of report.shrunk) {
    out.push(
      `note ${entry.file} ${entry.function}: ${now.lines} lines, baseline ${entry.lines}; lower the baseline (--prune)`,
    );
  }
  for (const { entry, now } of report.resolved) {
    const state = now ? `${now.lines} lines, within the limit` : "no longer found";
    out.push(`note ${entry.file} ${entry.function}: ${state}; remove it from the baseline (--prune)`);
  }
  return out;
}
