/** How a module is referenced: a static import, a re-export, a dynamic `import()` or a `require()`. */
export type ImportKind = "import" | "export" | "dynamic" | "require";

/** One module reference found in a source file. */
export interface ImportRef {
  kind: ImportKind;
  /** The module specifier, as written between the quotes. */
  specifier: string;
  /** 1-based line of the statement's first keyword (`import`, `export`, `require`). */
  line: number;
  /** True when the reference is erased at build time (`import type`, `export type`, `import("x").T`). */
  typeOnly: boolean;
  /** The clause between the keyword and `from` (`{ a, type b as c }`, `* as ns`, `d`), empty if none. */
  clause: string;
  /** Offsets of the whole statement in the source, for callers that want to skip it. */
  start: number;
  end: number;
}

/** A source text with comments and string/template contents blanked out (same length, same lines). */
export interface MaskedSource {
  /** The text a regex may search without matching inside comments or strings. */
  code: string;
  /** Value of each plain string literal, keyed by the offset of its opening quote. */
  strings: Map<number, string>;
}

const IDENT = /[\w$]/;
/** After these keywords a `/` starts a regular expression, not a division. */
const REGEX_AFTER_WORDS = new Set([
  "return",
  "typeof",
  "case",
  "do",
  "else",
  "in",
  "of",
  "void",
  "yield",
  "await",
]);

/**
 * Blanks comments, strings, template literals and regex literals so that import-looking text inside
 * them is never taken for an import. Newlines are kept, so offsets and line numbers stay valid.
 */
export function maskSource(text: string): MaskedSource {
  const out = text.split("");
  const strings = new Map<number, string>();
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  // Each entry is the brace depth at which a template literal's `${` was opened.
  const templateStack: number[] = [];
  let depth = 0;
  let i = 0;
  // Last significant character and word, to tell a regex literal from a division.
  let lastChar = "";
  let lastWord = "";

  const scanTemplate = (from: number): number => {
    // `from` is just after a backtick or a closing `}` of `${...}`: scan to the next `${` or backtick.
    let j = from;
    while (j < text.length) {
      const c = text[j];
      if (c === "\\") j += 2;
      else if (c === "`") {
        blank(from, j);
        return j + 1;
      } else if (c === "$" && text[j + 1] === "{") {
        blank(from, j);
        templateStack.push(depth);
        depth++;
        return j + 2;
      } else j++;
    }
    blank(from, text.length);
    return text.length;
  };

  while (i < text.length) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      const end = text.indexOf("\n", i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      strings.set(i, text.slice(i + 1, j));
      blank(i + 1, j);
      i = j + 1;
      lastChar = c;
      lastWord = "";
    } else if (c === "`") {
      i = scanTemplate(i + 1);
      lastChar = "`";
      lastWord = "";
    } else if (
      c === "}" &&
      templateStack.length > 0 &&
      templateStack[templateStack.length - 1] === depth - 1
    ) {
      templateStack.pop();
      depth--;
      i = scanTemplate(i + 1);
      lastChar = "`";
      lastWord = "";
    } else if (c === "/" && startsRegex(lastChar, lastWord)) {
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== "\n") {
        const r = text[j];
        if (r === "\\") j++;
        else if (r === "[") inClass = true;
        else if (r === "]") inClass = false;
        else if (r === "/" && !inClass) break;
        j++;
      }
      blank(i + 1, j);
      i = j + 1;
      lastChar = "/";
      lastWord = "";
    } else {
      if (c === "{") depth++;
      else if (c === "}") depth--;
      if (IDENT.test(c)) {
        let j = i;
        while (j < text.length && IDENT.test(text[j] as string)) j++;
        lastWord = text.slice(i, j);
        lastChar = "a";
        i = j;
        continue;
      }
      if (!/\s/.test(c)) {
        lastChar = c;
        lastWord = "";
      }
      i++;
    }
  }
  return { code: out.join(""), strings };
}

function startsRegex(lastChar: string, lastWord: string): boolean {
  if (lastChar === "") return true;
  if (lastChar === "a") return REGEX_AFTER_WORDS.has(lastWord);
  return !/[)\]}"'`]/.test(lastChar);
}

/** 1-based line number of an offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let k = 0; k < offset && k < text.length; k++) if (text[k] === "\n") line++;
  return line;
}

const STATIC_IMPORT = /(?<![\w$.])import(?![\w$])/g;
const EXPORT_FROM = /(?<![\w$.])export\s+(type\s+)?(\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*(["'])/g;
const REQUIRE = /(?<![\w$.])require\s*\(\s*(["'])/g;

/**
 * Finds every module reference in a TypeScript/JavaScript source: `import ... from "x"` (also across
 * lines and with `type`), `import "x"`, `export ... from "x"`, `import("x")` and `require("x")`.
 * Comments and string contents are ignored. A dynamic import is type-only when it is used as a type
 * (`typeof import("x")`, or `import("x").Name` that is not `.then`/`.catch`/`.finally`).
 */
export function findImports(text: string): ImportRef[] {
  const { code, strings } = maskSource(text);
  const refs: ImportRef[] = [];
  const stringAt = (quote: number) => strings.get(quote);
  const endOf = (quote: number) => quote + (stringAt(quote)?.length ?? 0) + 2;

  for (const m of code.matchAll(STATIC_IMPORT)) {
    const start = m.index;
    const rest = code.slice(start + 6);
    const dynamic = /^\s*\(\s*(["'])/.exec(rest);
    if (dynamic) {
      const quote = start + 6 + dynamic[0].length - 1;
      const specifier = stringAt(quote);
      if (specifier === undefined) continue;
      const close = /^\s*\)/.exec(code.slice(endOf(quote)));
      if (!close) continue;
      const end = endOf(quote) + close[0].length;
      const before = code.slice(0, start).trimEnd();
      const after = /^\s*\.\s*([\w$]+)/.exec(code.slice(end));
      const typeOnly =
        /(?<![\w$])typeof$/.test(before) ||
        (after !== null && !/^(then|catch|finally)$/.test(after[1] ?? ""));
      refs.push({ kind: "dynamic", specifier, line: lineAt(code, start), typeOnly, clause: "", start, end });
      continue;
    }
    const sideEffect = /^\s*(["'])/.exec(rest);
    if (sideEffect) {
      const quote = start + 6 + sideEffect[0].length - 1;
      const specifier = stringAt(quote);
      if (specifier === undefined) continue;
      refs.push({
        kind: "import",
        specifier,
        line: lineAt(code, start),
        typeOnly: false,
        clause: "",
        start,
        end: endOf(quote),
      });
      continue;
    }
    // `import x = require("y")` is left to the require pattern below.
    const fromClause = /^\s+(type\s+(?!from\b))?([\w$*{][^;=]*?)\s*\bfrom\s*(["'])/.exec(rest);
    if (!fromClause) continue;
    const quote = start + 6 + fromClause[0].length - 1;
    const specifier = stringAt(quote);
    if (specifier === undefined) continue;
    refs.push({
      kind: "import",
      specifier,
      line: lineAt(code, start),
      typeOnly: fromClause[1] !== undefined,
      clause: (fromClause[2] ?? "").trim(),
      start,
      end: endOf(quote),
    });
  }

  for (const m of code.matchAll(EXPORT_FROM)) {
    const quote = m.index + m[0].length - 1;
    const specifier = stringAt(quote);
    if (specifier === undefined) continue;
    refs.push({
      kind: "export",
      specifier,
      line: lineAt(code, m.index),
      typeOnly: m[1] !== undefined,
      clause: (m[2] ?? "").trim(),
      start: m.index,
      end: endOf(quote),
    });
  }

  for (const m of code.matchAll(REQUIRE)) {
    const quote = m.index + m[0].length - 1;
    const specifier = stringAt(quote);
    if (specifier === undefined) continue;
    refs.push({
      kind: "require",
      specifier,
      line: lineAt(code, m.index),
      typeOnly: false,
      clause: "",
      start: m.index,
      end: endOf(quote),
    });
  }

  return refs.sort((a, b) => a.start - b.start);
}

/** One name of a named-import clause: `{ a, type b as c }` gives `a→a` and `b→c` (type-only). */
export interface NamedBinding {
  imported: string;
  local: string;
  typeOnly: boolean;
}

/** Parses the named bindings of an import/export clause; a default or namespace part is ignored. */
export function namedBindings(clause: string): NamedBinding[] {
  const open = clause.indexOf("{");
  const close = clause.lastIndexOf("}");
  if (open === -1 || close < open) return [];
  return clause
    .slice(open + 1, close)
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const m = /^(type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?$/.exec(part);
      if (!m) return { imported: part, local: part, typeOnly: false };
      return { imported: m[2] ?? part, local: m[3] ?? m[2] ?? part, typeOnly: m[1] !== undefined };
    });
}

/** The namespace binding of `* as ns` (import or export clause), if any. */
export function namespaceBinding(clause: string): string | undefined {
  return /\*\s*as\s+([\w$]+)/.exec(clause)?.[1];
}
