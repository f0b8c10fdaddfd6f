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
  const masker = new SourceMasker(text);
  masker.run();
  return { code: masker.out.join(""), strings: masker.strings };
}

/** The scanner behind `maskSource`: one pass over the text, blanking as it goes. */
class SourceMasker {
  readonly out: string[];
  readonly strings = new Map<number, string>();
  /** Each entry is the brace depth at which a template literal's `${` was opened. */
  private readonly templateStack: number[] = [];
  private depth = 0;
  private i = 0;
  /** Last significant character and word, to tell a regex literal from a division. */
  private lastChar = "";
  private lastWord = "";

  constructor(private readonly text: string) {
    this.out = text.split("");
  }

  run(): void {
    const text = this.text;
    while (this.i < text.length) {
      const c = text[this.i] as string;
      const next = text[this.i + 1];
      if (c === "/" && next === "/") {
        const end = text.indexOf("\n", this.i);
        this.blankTo(end === -1 ? text.length : end);
      } else if (c === "/" && next === "*") {
        const end = text.indexOf("*/", this.i + 2);
        this.blankTo(end === -1 ? text.length : end + 2);
      } else if (c === '"' || c === "'") {
        this.stringLiteral(c);
      } else if (c === "`") {
        this.i = this.scanTemplate(this.i + 1);
        this.after("`");
      } else if (c === "}" && this.closesSubstitution()) {
        this.templateStack.pop();
        this.depth--;
        this.i = this.scanTemplate(this.i + 1);
        this.after("`");
      } else if (c === "/" && startsRegex(this.lastChar, this.lastWord)) {
        this.regexLiteral();
      } else {
        this.code(c);
      }
    }
  }

  private blank(from: number, to: number): void {
    for (let k = from; k < to; k++) if (this.out[k] !== "\n") this.out[k] = " ";
  }

  /** A comment: blanked from the cursor to `stop`, which becomes the cursor. */
  private blankTo(stop: number): void {
    this.blank(this.i, stop);
    this.i = stop;
  }

  /** Records what was last seen after a literal (which hides the last word). */
  private after(char: string): void {
    this.lastChar = char;
    this.lastWord = "";
  }

  /** True when a `}` at this depth ends a template literal's `${...}`. */
  private closesSubstitution(): boolean {
    const stack = this.templateStack;
    return stack.length > 0 && stack[stack.length - 1] === this.depth - 1;
  }

  private stringLiteral(quote: string): void {
    const text = this.text;
    let j = this.i + 1;
    while (j < text.length && text[j] !== quote && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
    this.strings.set(this.i, text.slice(this.i + 1, j));
    this.blank(this.i + 1, j);
    this.i = j + 1;
    this.after(quote);
  }

  /** `from` is just after a backtick or a closing `}` of `${...}`: scans to the next `${` or backtick. */
  private scanTemplate(from: number): number {
    const text = this.text;
    let j = from;
    while (j < text.length) {
      const c = text[j];
      if (c === "\\") j += 2;
      else if (c === "`") {
        this.blank(from, j);
        return j + 1;
      } else if (c === "$" && text[j + 1] === "{") {
        this.blank(from, j);
        this.templateStack.push(this.depth);
        this.depth++;
        return j + 2;
      } else j++;
    }
    this.blank(from, text.length);
    return text.length;
  }

  private regexLiteral(): void {
    const text = this.text;
    let j = this.i + 1;
    let inClass = false;
    while (j < text.length && text[j] !== "\n") {
      const r = text[j];
      if (r === "\\") j++;
      else if (r === "[") inClass = true;
      else if (r === "]") inClass = false;
      else if (r === "/" && !inClass) break;
      j++;
    }
    this.blank(this.i + 1, j);
    this.i = j + 1;
    this.after("/");
  }

  /** Code outside literals: braces count, words and punctuation are remembered. */
  private code(c: string): void {
    if (c === "{") this.depth++;
    else if (c === "}") this.depth--;
    if (IDENT.test(c)) {
      let j = this.i;
      while (j < this.text.length && IDENT.test(this.text[j] as string)) j++;
      this.lastWord = this.text.slice(this.i, j);
      this.lastChar = "a";
      this.i = j;
      return;
    }
    if (!/\s/.test(c)) this.after(c);
    this.i++;
  }
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
  const masked = maskSource(text);
  const refs: ImportRef[] = [];
  for (const m of masked.code.matchAll(STATIC_IMPORT)) {
    const ref = staticImportAt(masked, m.index);
    if (ref) refs.push(ref);
  }
  refs.push(...fromPattern(masked, EXPORT_FROM, "export"), ...fromPattern(masked, REQUIRE, "require"));
  return refs.sort((a, b) => a.start - b.start);
}

/** Offset just after the closing quote of the string literal whose opening quote is at `quote`. */
function endOfString({ strings }: MaskedSource, quote: number): number {
  return quote + (strings.get(quote)?.length ?? 0) + 2;
}

/** The reference an `import` keyword at `start` begins: dynamic, side-effect or with a clause. */
function staticImportAt(masked: MaskedSource, start: number): ImportRef | undefined {
  const { code, strings } = masked;
  const rest = code.slice(start + 6);
  const dynamic = /^\s*\(\s*(["'])/.exec(rest);
  if (dynamic) return dynamicImportAt(masked, start, start + 6 + dynamic[0].length - 1);
  const sideEffect = /^\s*(["'])/.exec(rest);
  if (sideEffect) {
    const quote = start + 6 + sideEffect[0].length - 1;
    const specifier = strings.get(quote);
    if (specifier === undefined) return undefined;
    const end = endOfString(masked, quote);
    return { kind: "import", specifier, line: lineAt(code, start), typeOnly: false, clause: "", start, end };
  }
  // `import x = require("y")` is left to the require pattern.
  const fromClause = /^\s+(type\s+(?!from\b))?([\w$*{][^;=]*?)\s*\bfrom\s*(["'])/.exec(rest);
  if (!fromClause) return undefined;
  const quote = start + 6 + fromClause[0].length - 1;
  const specifier = strings.get(quote);
  if (specifier === undefined) return undefined;
  return {
    kind: "import",
    specifier,
    line: lineAt(code, start),
    typeOnly: fromClause[1] !== undefined,
    clause: (fromClause[2] ?? "").trim(),
    start,
    end: endOfString(masked, quote),
  };
}

/** `import("x")` at `start`, its quote at `quote`; type-only when used as a type. */
function dynamicImportAt(masked: MaskedSource, start: number, quote: number): ImportRef | undefined {
  const { code, strings } = masked;
  const specifier = strings.get(quote);
  if (specifier === undefined) return undefined;
  const close = /^\s*\)/.exec(code.slice(endOfString(masked, quote)));
  if (!close) return undefined;
  const end = endOfString(masked, quote) + close[0].length;
  const before = code.slice(0, start).trimEnd();
  const after = /^\s*\.\s*([\w$]+)/.exec(code.slice(end));
  const typeOnly =
    /(?<![\w$])typeof$/.test(before) || (after !== null && !/^(then|catch|finally)$/.test(after[1] ?? ""));
  return { kind: "dynamic", specifier, line: lineAt(code, start), typeOnly, clause: "", start, end };
}

/** The references of a pattern whose match ends at the specifier's opening quote (`export … from`, `require(`). */
function fromPattern(masked: MaskedSource, pattern: RegExp, kind: "export" | "require"): ImportRef[] {
  const refs: ImportRef[] = [];
  for (const m of masked.code.matchAll(pattern)) {
    const quote = m.index + m[0].length - 1;
    const specifier = masked.strings.get(quote);
    if (specifier === undefined) continue;
    const exported = kind === "export";
    refs.push({
      kind,
      specifier,
      line: lineAt(masked.code, m.index),
      typeOnly: exported && m[1] !== undefined,
      clause: exported ? (m[2] ?? "").trim() : "",
      start: m.index,
      end: endOfString(masked, quote),
    });
  }
  return refs;
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
