// Measures the functions of every package (and of scripts/) with the TypeScript compiler API: none
// may be longer than MAX_FUNCTION_LINES. There is no baseline.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts from "typescript";

/** Longest body, in lines, a function may have. */
export const MAX_FUNCTION_LINES = 80;

/** Folders that are never measured: dependencies, build output, test fixtures and snapshots. */
const SKIPPED_DIRS = new Set(["node_modules", "dist", "fixtures", "__snapshots__"]);

/** Source files by extension: TypeScript, and the few JavaScript modules (`bin/*.mjs`). */
const SOURCE_FILE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** Test code, exempt from the limit: tests, contract suites, test-support and fixture modules. */
const EXEMPT_FILE = /(\.test|\.contract|\.test-support|\.fixture)\.[mc]?[jt]s$|(^|\/)test-context\.ts$/;

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

/** What the check found; every offender fails it (there is no baseline and no exception). */
export interface FunctionLengthReport {
  filesChecked: number;
  functionsChecked: number;
  /** Over the limit: each fails the check. */
  offenders: FunctionLength[];
}

/** True when no function is over the limit. */
export function passes(report: FunctionLengthReport): boolean {
  return report.offenders.length === 0;
}

/**
 * Every measured file, relative to root with `/` separators, sorted: everything under each
 * `packages/<name>/` (src, test-support, build, bin) and under `scripts/`, TypeScript and JavaScript,
 * except tests, contract suites, test-support and fixture modules, and the skipped folders.
 */
export function sourceFiles(rootDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(join(dir, entry.name));
        continue;
      }
      const file = relative(rootDir, join(dir, entry.name)).split(sep).join("/");
      if (SOURCE_FILE.test(entry.name) && !entry.name.endsWith(".d.ts") && !EXEMPT_FILE.test(file)) {
        found.push(file);
      }
    }
  };
  const packagesDir = join(rootDir, "packages");
  if (existsSync(packagesDir)) walk(packagesDir);
  const scriptsDir = join(rootDir, "scripts");
  if (existsSync(scriptsDir)) walk(scriptsDir);
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
  const kind = /\.[mc]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
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

/** Measures every source file under rootDir (see `sourceFiles`). */
export function measureSources(rootDir: string): { files: string[]; functions: FunctionLength[] } {
  const files = sourceFiles(rootDir);
  const functions = files.flatMap((file) =>
    measureFunctions(file, readFileSync(join(rootDir, file), "utf8")),
  );
  return { files, functions };
}

/** Checks measured functions against the limit. */
export function checkFunctionLengths(
  functions: readonly FunctionLength[],
  filesChecked: number,
  limit = MAX_FUNCTION_LINES,
): FunctionLengthReport {
  return {
    filesChecked,
    functionsChecked: functions.length,
    offenders: functions.filter((fn) => fn.lines > limit),
  };
}

/** Human-readable lines for a report: one per offender. */
export function formatReport(report: FunctionLengthReport, limit = MAX_FUNCTION_LINES): string[] {
  return report.offenders.map(
    (fn) => `OVER ${fn.file}:${fn.line} ${fn.name}: ${fn.lines} lines (limit ${limit}); split it`,
  );
}
