import { describeCharacter, expressionError } from "./expression-error.js";

/** The kinds of token the expression grammar knows. Keywords are `identifier` tokens. */
export type TokenKind =
  | "lparen"
  | "rparen"
  | "comma"
  | "bang"
  | "and"
  | "or"
  | "hash"
  | "dot"
  | "identifier"
  | "string"
  | "number"
  | "end";

/** One token: its kind, its span, and for identifiers, strings and numbers the text or value. */
export interface Token {
  readonly kind: TokenKind;
  readonly position: number;
  readonly end: number;
  /** Identifier text, or the string literal's value with `''` resolved. */
  readonly text: string;
  /** The value of a number token. */
  readonly value: number;
}

const SINGLE: Readonly<Record<string, TokenKind>> = {
  "(": "lparen",
  ")": "rparen",
  ",": "comma",
  "#": "hash",
  ".": "dot",
};

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isIdentifierStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isIdentifierPart = (c: number): boolean => isIdentifierStart(c) || isDigit(c);
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

/** Characters refused with a reason more helpful than "unexpected character". */
const REFUSED: Readonly<Record<string, string>> = {
  "=": "'=' is not allowed: the language has no assignments or comparisons",
  "@": "bean references ('@') are not allowed",
  "&": "use '&&' or 'and'",
  "|": "use '||' or 'or'",
  '"': "strings take single quotes",
};

/**
 * Reads an expression token by token, on demand, so the first error in the text is the one reported.
 * Identifiers are ASCII (`[A-Za-z_][A-Za-z0-9_]*`); strings are single-quoted and a quote inside is
 * written twice (`'it''s'`), a backslash is an ordinary character; numbers are decimal (`12`, `1.5`).
 * Any other character is an error with its position. Each character is looked at once or twice.
 */
export class ExpressionLexer {
  private offset = 0;
  private lookahead: Token | undefined;
  /** The end of the last token taken with next(). */
  lastEnd = 0;

  constructor(private readonly source: string) {}

  /** The next token, without taking it. */
  peek(): Token {
    this.lookahead ??= this.read();
    return this.lookahead;
  }

  /** Takes the next token; at the end, keeps answering the `end` token. */
  next(): Token {
    const next = this.peek();
    if (next.kind !== "end") this.lookahead = undefined;
    this.lastEnd = next.end;
    return next;
  }

  private read(): Token {
    const source = this.source;
    const length = source.length;
    let i = this.offset;
    while (i < length && isSpace(source.charCodeAt(i))) i++;
    const start = i;
    const result = (kind: TokenKind, end: number, text = "", value = 0): Token => {
      this.offset = end;
      return token(kind, start, end, text, value);
    };
    if (i >= length) return result("end", length);
    const c = source.charCodeAt(i);
    const ch = source[i] as string;
    const single = Object.hasOwn(SINGLE, ch) ? SINGLE[ch] : undefined;
    if (single !== undefined) return result(single, i + 1);
    if (ch === "!") {
      if (source[i + 1] === "=") throw expressionError(source, start, "comparisons ('!=') are not supported");
      return result("bang", i + 1);
    }
    if ((ch === "&" || ch === "|") && source[i + 1] === ch) return result(ch === "&" ? "and" : "or", i + 2);
    if (isIdentifierStart(c)) {
      while (i < length && isIdentifierPart(source.charCodeAt(i))) i++;
      // A look-alike letter inside a name (`hasRоle` with a Cyrillic о) is reported where it is.
      if (source.charCodeAt(i) > 0x7f) {
        throw expressionError(source, i, `unexpected character ${describeCharacter(source, i)}`);
      }
      return result("identifier", i, source.slice(start, i));
    }
    if (isDigit(c)) {
      while (i < length && isDigit(source.charCodeAt(i))) i++;
      if (source[i] === "." && isDigit(source.charCodeAt(i + 1))) {
        i++;
        while (i < length && isDigit(source.charCodeAt(i))) i++;
      }
      return result("number", i, "", Number(source.slice(start, i)));
    }
    if (ch === "'") {
      const string = readString(source, start);
      this.offset = string.end;
      return string;
    }
    const refused = Object.hasOwn(REFUSED, ch) ? REFUSED[ch] : undefined;
    throw expressionError(
      source,
      start,
      refused ?? `unexpected character ${describeCharacter(source, start)}`,
    );
  }
}

function token(kind: TokenKind, position: number, end: number, text = "", value = 0): Token {
  return { kind, position, end, text, value };
}

/** Reads the string literal whose opening quote is at `start`. */
function readString(source: string, start: number): Token {
  let value = "";
  let chunk = start + 1;
  for (;;) {
    const quote = source.indexOf("'", chunk);
    if (quote < 0) throw expressionError(source, start, "unterminated string");
    if (source[quote + 1] === "'") {
      value += source.slice(chunk, quote + 1);
      chunk = quote + 2;
      continue;
    }
    value += source.slice(chunk, quote);
    return token("string", start, quote + 1, value);
  }
}
