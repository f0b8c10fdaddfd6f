import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import ts from "typescript";

/** One package whose API is reported: its npm name and folder. */
export interface ReportedPackage {
  name: string;
  dir: string;
}

const FLAGS =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.UseFullyQualifiedType |
  ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;

const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
  experimentalDecorators: true,
  allowImportingTsExtensions: true,
  noEmit: true,
  skipLibCheck: true,
  strict: true,
  types: ["node"],
};

/**
 * The published subpaths of a package (those of `publishConfig.exports`, else `exports`) that name
 * code, with the source file the workspace's `exports` names for each.
 */
export function sourceEntryPoints(dir: string): [string, string][] {
  const manifest = JSON.parse(readFileSync(resolve(dir, "package.json"), "utf8")) as {
    exports: Record<string, string>;
    publishConfig?: { exports?: Record<string, unknown> };
  };
  const published = new Set(Object.keys(manifest.publishConfig?.exports ?? manifest.exports));
  return Object.entries(manifest.exports)
    .filter(([subpath, file]) => published.has(subpath) && file.endsWith(".ts"))
    .map(([subpath, file]) => [subpath, resolve(dir, file)]);
}

/** The checkout's root: an `import("<absolute path>")` the checker prints is written relative to it. */
const ROOT = `${resolve(import.meta.dirname, "..")}/`;

/** One line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** A line with the checkout's absolute path taken out (the report must not depend on where it runs). */
function portable(line: string): string {
  return line.replaceAll(`import("${ROOT}`, 'import("');
}

function isPublicMember(symbol: ts.Symbol): boolean {
  if (symbol.name.startsWith("#") || symbol.name.startsWith("__")) return false;
  const flags = symbol.valueDeclaration ? ts.getCombinedModifierFlags(symbol.valueDeclaration) : 0;
  return (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) === 0;
}

/** `{ a: A; b?: B }` of a type's public properties by name (methods as function types). */
function membersOf(checker: ts.TypeChecker, type: ts.Type, at: ts.Node): string {
  const members = checker
    .getPropertiesOfType(type)
    .filter(isPublicMember)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((p) => {
      const optional = p.flags & ts.SymbolFlags.Optional ? "?" : "";
      return `${p.name}${optional}: ${checker.typeToString(checker.getTypeOfSymbolAtLocation(p, at), at, FLAGS)}`;
    });
  return members.length === 0 ? "{}" : `{ ${members.join("; ")} }`;
}

/** The report lines of one exported symbol: each of its meanings (a token is a const and an interface). */
function declarationLines(checker: ts.TypeChecker, exported: ts.Symbol, at: ts.Node): string[] {
  const s = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const name = exported.name;
  const lines: string[] = [];
  if (s.flags & ts.SymbolFlags.Class) {
    const ctor = checker
      .getSignaturesOfType(checker.getTypeOfSymbolAtLocation(s, at), ts.SignatureKind.Construct)
      .map((sig) => `new ${checker.signatureToString(sig, at, FLAGS)}`);
    lines.push(
      `class ${name} ${membersOf(checker, checker.getDeclaredTypeOfSymbol(s), at)}${ctor.length ? ` ${ctor.join("; ")}` : ""}`,
    );
  } else if (s.flags & ts.SymbolFlags.Function) {
    const type = checker.getTypeOfSymbolAtLocation(s, at);
    for (const sig of checker.getSignaturesOfType(type, ts.SignatureKind.Call))
      lines.push(`function ${name}${checker.signatureToString(sig, at, FLAGS)}`);
  } else if (s.flags & (ts.SymbolFlags.Variable | ts.SymbolFlags.Enum)) {
    lines.push(`const ${name}: ${checker.typeToString(checker.getTypeOfSymbolAtLocation(s, at), at, FLAGS)}`);
  }
  if (s.flags & ts.SymbolFlags.Interface) {
    lines.push(`interface ${name} ${membersOf(checker, checker.getDeclaredTypeOfSymbol(s), at)}`);
  } else if (s.flags & ts.SymbolFlags.TypeAlias) {
    const declaration = s.declarations?.find(ts.isTypeAliasDeclaration);
    const shown = declaration
      ? declaration.type.getText()
      : checker.typeToString(checker.getDeclaredTypeOfSymbol(s), at, FLAGS);
    const params = declaration?.typeParameters
      ? `<${declaration.typeParameters.map((p) => p.getText()).join(", ")}>`
      : "";
    lines.push(`type ${name}${params} = ${shown}`);
  }
  if (lines.length === 0) lines.push(`unknown ${name}`);
  return lines.map(oneLine);
}

/** One program over every published entry point of `packages` (shared with the surface count). */
export function apiProgram(packages: ReportedPackage[]): ts.Program {
  return ts.createProgram(
    packages.flatMap((p) => sourceEntryPoints(p.dir).map(([, file]) => file)),
    OPTIONS,
  );
}

/** The API report of packages: per package, per subpath, every export with its type, as Markdown. */
export function apiReports(packages: ReportedPackage[], program = apiProgram(packages)): Map<string, string> {
  const entries = packages.map((p) => ({ ...p, subpaths: sourceEntryPoints(p.dir) }));
  const checker = program.getTypeChecker();
  const reports = new Map<string, string>();
  for (const e of entries) {
    const out = [
      `# ${e.name}: API report`,
      "",
      "Generated by `pnpm report:surface --write` from the sources' types (scripts/api-report.ts); CI",
      "fails when it differs from the code. Every export of every subpath, with its type.",
    ];
    for (const [subpath, file] of e.subpaths) {
      const source = program.getSourceFile(file);
      const moduleSymbol = source && checker.getSymbolAtLocation(source);
      if (!source || !moduleSymbol) throw new Error(`${e.name} ${subpath}: ${file} not found`);
      const lines = checker
        .getExportsOfModule(moduleSymbol)
        .sort((a, b) => a.name.localeCompare(b.name))
        .flatMap((symbol) => declarationLines(checker, symbol, source))
        .map(portable);
      out.push("", `## ${e.name}${subpath.slice(1)}`, "", "```ts", ...lines, "```");
    }
    reports.set(e.name, `${out.join("\n")}\n`);
  }
  return reports;
}
