import { expressionError, quoteLiteral } from "./expression-error.js";
import type { ArgumentNode, CallNode, CallReceiver, ExpressionNode } from "./expression-node.js";
import { ExpressionLexer, type Token, type TokenKind } from "./expression-lexer.js";
import { findFunction } from "./function-catalog.js";
import { displayName, type FunctionDefinition, signatureProblem } from "./function-definition.js";

/** Longest expression accepted, in UTF-16 code units. */
export const MAX_EXPRESSION_LENGTH = 4096;
/** Deepest nesting of parentheses and negations. */
export const MAX_NESTING_DEPTH = 64;
/** Most arguments one call may take. */
export const MAX_ARGUMENTS = 32;

const RECEIVERS: ReadonlySet<string> = new Set<CallReceiver>(["ai", "ownership"]);

/**
 * Parses and validates a policy expression: syntax, function names, arity, argument types and
 * literal contents (CIDRs, times, days, dates, zero-trust actions). Any problem, hostile input
 * included, throws `POLICY_EXPRESSION_INVALID` with the 0-based position; the work is linear in the
 * input and bounded by the limits above, so nothing hangs or overflows the stack.
 *
 * Grammar (keywords `and`, `or`, `not`, `true`, `false` in any case; function names exact):
 * ```
 * or      := and (("or" | "||") and)*
 * and     := unary (("and" | "&&") unary)*
 * unary   := ("!" | "not") unary | primary
 * primary := "(" or ")" | "true" | "false" | call | "#" ("ai" | "ownership") "." name args
 * call    := name args | name            (bare form only for permitAll, denyAll)
 * args    := "(" [arg ("," arg)*] ")"
 * arg     := 'string' | number | "true" | "false" | "authentication" | "returnObject"
 * ```
 * Hand-written recursive descent rather than a parser library: the grammar is tiny, every error must
 * carry a position and a reason, and nothing here may ever reach `eval` or a general-purpose evaluator.
 */
export function parseExpression(source: string): ExpressionNode {
  if (typeof source !== "string") throw expressionError("", 0, "expression must be a string");
  if (source.length > MAX_EXPRESSION_LENGTH) {
    throw expressionError(
      source,
      MAX_EXPRESSION_LENGTH,
      `expression longer than ${MAX_EXPRESSION_LENGTH} characters`,
    );
  }
  return new Parser(source).parse();
}

function isKeyword(token: Token, keyword: string): boolean {
  return (
    token.kind === "identifier" &&
    token.text.length === keyword.length &&
    token.text.toLowerCase() === keyword
  );
}

class Parser {
  private readonly lexer: ExpressionLexer;
  private depth = 0;

  constructor(private readonly source: string) {
    this.lexer = new ExpressionLexer(source);
  }

  parse(): ExpressionNode {
    if (this.peek().kind === "end") throw this.error(0, "empty expression");
    const node = this.parseOr();
    const rest = this.peek();
    if (rest.kind !== "end") throw this.unexpected(rest);
    return node;
  }

  private parseOr(): ExpressionNode {
    const first = this.parseAnd();
    if (!this.atOperator("or")) return first;
    const operands = [first];
    while (this.atOperator("or")) {
      this.lexer.next();
      operands.push(this.parseAnd());
    }
    return { kind: "or", operands, position: first.position, end: (operands.at(-1) as ExpressionNode).end };
  }

  private parseAnd(): ExpressionNode {
    const first = this.parseUnary();
    if (!this.atOperator("and")) return first;
    const operands = [first];
    while (this.atOperator("and")) {
      this.lexer.next();
      operands.push(this.parseUnary());
    }
    return { kind: "and", operands, position: first.position, end: (operands.at(-1) as ExpressionNode).end };
  }

  private parseUnary(): ExpressionNode {
    const token = this.peek();
    if (token.kind !== "bang" && !isKeyword(token, "not")) return this.parsePrimary();
    this.lexer.next();
    this.enter(token);
    const operand = this.parseUnary();
    this.depth--;
    return { kind: "not", operand, position: token.position, end: operand.end };
  }

  private parsePrimary(): ExpressionNode {
    const token = this.next();
    switch (token.kind) {
      case "lparen": {
        this.enter(token);
        const inner = this.parseOr();
        this.expect("rparen", "expected ')'");
        this.depth--;
        return inner;
      }
      case "hash":
        return this.parseReceiverCall(token);
      case "identifier":
        return this.parseIdentifier(token);
      case "number":
        throw this.error(token.position, "a number is not a condition");
      case "string":
        throw this.error(token.position, "a string is not a condition");
      default:
        throw this.unexpected(token, "expected a condition");
    }
  }

  private parseIdentifier(token: Token): ExpressionNode {
    const name = token.text;
    const lower = name.toLowerCase();
    if (lower === "true" || lower === "false") {
      return { kind: "boolean", value: lower === "true", position: token.position, end: token.end };
    }
    if (lower === "and" || lower === "or") throw this.error(token.position, `unexpected '${lower}'`);
    if (name === "authentication" || name === "returnObject") {
      throw this.error(token.position, `'${name}' may only be an argument of #ownership.isOwner`);
    }
    const definition = findFunction(undefined, name);
    if (definition === undefined) throw this.error(token.position, `unknown function ${quoteLiteral(name)}`);
    if (this.peek().kind !== "lparen" && !definition.bare) {
      throw this.error(token.position, `${name} must be called with parentheses: ${name}()`);
    }
    return this.finishCall(definition, token);
  }

  private parseReceiverCall(hash: Token): ExpressionNode {
    const variable = this.next();
    if (variable.kind !== "identifier" || variable.position !== hash.end) {
      throw this.error(hash.position, "expected a variable name after '#'");
    }
    if (!RECEIVERS.has(variable.text)) {
      throw this.error(
        hash.position,
        `unknown variable ${quoteLiteral(`#${variable.text}`)}: only #ai and #ownership`,
      );
    }
    const receiver = variable.text as CallReceiver;
    this.expect("dot", `expected '.' after '#${receiver}'`);
    const method = this.expect("identifier", `expected a method name after '#${receiver}.'`);
    const definition = findFunction(receiver, method.text);
    const shown = displayName(receiver, method.text);
    if (definition === undefined) throw this.error(method.position, `unknown method ${quoteLiteral(shown)}`);
    if (this.peek().kind !== "lparen")
      throw this.error(method.position, `${shown} must be called with parentheses`);
    return this.finishCall(definition, hash);
  }

  /** Reads the argument list (if any), checks it against the definition, refuses member access after it. */
  private finishCall(definition: FunctionDefinition, start: Token): CallNode {
    let args: ArgumentNode[] = [];
    let end = this.lexer.lastEnd;
    const parenthesized = this.peek().kind === "lparen";
    if (parenthesized) {
      const open = this.next();
      args = this.parseArguments();
      end = this.lexer.lastEnd;
      const problem = signatureProblem(definition, args, open.position);
      if (problem !== undefined) throw this.error(problem.position, problem.reason);
    }
    if (this.peek().kind === "dot") {
      throw this.error(this.peek().position, "property access and method calls are not allowed");
    }
    const { receiver, name } = definition;
    return { kind: "call", receiver, name, args, parenthesized, position: start.position, end };
  }

  private parseArguments(): ArgumentNode[] {
    const args: ArgumentNode[] = [];
    if (this.peek().kind === "rparen") {
      this.lexer.next();
      return args;
    }
    for (;;) {
      if (args.length === MAX_ARGUMENTS) {
        throw this.error(this.peek().position, `too many arguments: at most ${MAX_ARGUMENTS}`);
      }
      args.push(this.parseArgument());
      const separator = this.next();
      if (separator.kind === "rparen") return args;
      if (separator.kind !== "comma") throw this.unexpected(separator, "expected ',' or ')'");
    }
  }

  private parseArgument(): ArgumentNode {
    const token = this.next();
    const { position, end } = token;
    if (token.kind === "string") return { kind: "string", value: token.text, position, end };
    if (token.kind === "number") return { kind: "number", value: token.value, position, end };
    if (token.kind === "identifier") {
      const lower = token.text.toLowerCase();
      if (lower === "true" || lower === "false")
        return { kind: "boolean", value: lower === "true", position, end };
      if (token.text === "authentication" || token.text === "returnObject") {
        return { kind: "identifier", name: token.text, position, end };
      }
      throw this.error(position, `unexpected name ${quoteLiteral(token.text)}: arguments are quoted strings`);
    }
    if (token.kind === "hash") throw this.error(position, "variables are not allowed as arguments");
    throw this.unexpected(token, "expected an argument");
  }

  private atOperator(operator: "and" | "or"): boolean {
    const token = this.peek();
    return token.kind === operator || isKeyword(token, operator);
  }

  private enter(token: Token): void {
    if (++this.depth > MAX_NESTING_DEPTH)
      throw this.error(token.position, `nesting deeper than ${MAX_NESTING_DEPTH}`);
  }

  private peek(): Token {
    return this.lexer.peek();
  }

  private next(): Token {
    return this.lexer.next();
  }

  private expect(kind: TokenKind, reason: string): Token {
    const token = this.next();
    if (token.kind !== kind) throw this.unexpected(token, reason);
    return token;
  }

  private unexpected(token: Token, expected?: string) {
    const found =
      token.kind === "end" ? "end of expression" : quoteLiteral(this.source.slice(token.position, token.end));
    return this.error(
      token.position,
      expected === undefined ? `unexpected ${found}` : `${expected}, found ${found}`,
    );
  }

  private error(position: number, reason: string) {
    return expressionError(this.source, position, reason);
  }
}
