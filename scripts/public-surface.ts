import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import ts from "typescript";

/**
 * The most names (values and types together, each counted once per subpath) `@keyward/core` may
 * export across its subpaths: half of the 665 of issue 26's baseline (340 values, 325 types).
 */
export const MAX_PUBLIC_NAMES = 332;

/** What one subpath of a package's `exports` map exports, by the TypeScript compiler. */
export interface SubpathSurface {
  /** The subpath as package.json spells it (`.`, `./ports`, …). */
  subpath: string;
  /** Names that are values at run time (a function, class, constant, or a token that is also an interface), sorted. */
  values: string[];
  /** Names that exist only as types (interfaces, type aliases), sorted. */
  types: string[];
}

/** A package's public surface: every subpath's names, and the names more than one subpath exports. */
export interface PublicSurface {
  subpaths: SubpathSurface[];
  /** Each name exported from two or more subpaths, with those subpaths, sorted by name. */
  duplicates: { name: string; subpaths: string[] }[];
  /** Values and types of every subpath (a name counted once per subpath). */
  total: number;
}

/** The compiler options of the repository's tsconfig that decide how an entry point resolves. */
const COMPILER_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  experimentalDecorators: true,
  allowImportingTsExtensions: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
};

/** The subpaths of a package.json `exports` map with the files they point at (string or `default`/`import` condition). */
function entryPoints(packageDir: string): [string, string][] {
  const manifest = JSON.parse(readFileSync(resolve(packageDir, "package.json"), "utf8")) as {
    exports: Record<string, string | { default?: string; import?: string }>;
  };
  return Object.entries(manifest.exports).map(([subpath, target]) => {
    const file = typeof target === "string" ? target : (target.import ?? target.default);
    if (file === undefined) throw new Error(`exports["${subpath}"] names no file`);
    return [subpath, resolve(packageDir, file)];
  });
}

/** Splits one module's exports into values and types, following re-exports to what they name. */
function surfaceOf(checker: ts.TypeChecker, subpath: string, source: ts.SourceFile): SubpathSurface {
  const moduleSymbol = checker.getSymbolAtLocation(source);
  const values: string[] = [];
  const types: string[] = [];
  for (const symbol of moduleSymbol === undefined ? [] : checker.getExportsOfModule(moduleSymbol)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    (target.flags & ts.SymbolFlags.Value ? values : types).push(symbol.name);
  }
  return { subpath, values: values.sort(), types: types.sort() };
}

/**
 * Measures the surface of the package in `packageDir` (its package.json `exports`) with the compiler,
 * in `program` when given (one that holds its entry points), else in one of its own.
 */
export function measurePublicSurface(packageDir: string, given?: ts.Program): PublicSurface {
  const entries = entryPoints(packageDir);
  const program =
    given ??
    ts.createProgram(
      entries.map(([, file]) => file),
      COMPILER_OPTIONS,
    );
  const checker = program.getTypeChecker();
  const subpaths = entries.map(([subpath, file]) => {
    const source = program.getSourceFile(file);
    if (source === undefined) throw new Error(`${subpath}: ${file} not found`);
    return surfaceOf(checker, subpath, source);
  });
  const homes = new Map<string, string[]>();
  for (const { subpath, values, types } of subpaths) {
    for (const name of [...values, ...types]) homes.set(name, [...(homes.get(name) ?? []), subpath]);
  }
  const duplicates = [...homes]
    .filter(([, where]) => where.length > 1)
    .map(([name, where]) => ({ name, subpaths: where }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const total = subpaths.reduce((sum, s) => sum + s.values.length + s.types.length, 0);
  return { subpaths, duplicates, total };
}

/** What breaks the rules of the surface: a name exported twice, or more names than `max`. Empty when it holds. */
export function surfaceProblems(surface: PublicSurface, max: number = MAX_PUBLIC_NAMES): string[] {
  const problems = surface.duplicates.map(
    ({ name, subpaths }) =>
      `${name} is exported from ${subpaths.length} subpaths (${subpaths.join(", ")}): give it one home`,
  );
  if (surface.total > max) problems.push(`${surface.total} names exported, more than ${max}`);
  return problems;
}

/** The report the `pnpm report:surface` command prints: one line per subpath, the totals, the names exported twice. */
export function formatSurfaceReport(surface: PublicSurface, listNames = false): string[] {
  const lines: string[] = [];
  const width = Math.max(...surface.subpaths.map((s) => s.subpath.length));
  for (const { subpath, values, types } of surface.subpaths) {
    const sum = values.length + types.length;
    lines.push(
      `${subpath.padEnd(width)}  ${String(sum).padStart(4)} names: ${values.length} values, ${types.length} types`,
    );
    if (listNames) {
      for (const name of values) lines.push(`  value ${name}`);
      for (const name of types) lines.push(`  type  ${name}`);
    }
  }
  const values = surface.subpaths.reduce((sum, s) => sum + s.values.length, 0);
  lines.push(
    `total ${surface.total} names (${values} values, ${surface.total - values} types), limit ${MAX_PUBLIC_NAMES}`,
  );
  lines.push(`names exported from more than one subpath: ${surface.duplicates.length}`);
  for (const { name, subpaths } of surface.duplicates) lines.push(`  ${name}: ${subpaths.join(", ")}`);
  return lines;
}
