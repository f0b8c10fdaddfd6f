import type { ArgumentNode, ExpressionNode } from "./expression-node.js";

const PRECEDENCE: Readonly<Record<ExpressionNode["kind"], number>> = {
  or: 1,
  and: 2,
  not: 3,
  boolean: 4,
  call: 4,
};

/** A string literal in the language's syntax: single quotes, a quote inside doubled. */
export function quoteString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

function printArgument(arg: ArgumentNode): string {
  switch (arg.kind) {
    case "string":
      return quoteString(arg.value);
    case "number":
      return String(arg.value);
    case "boolean":
      return String(arg.value);
    case "identifier":
      return arg.name;
  }
}

function printOperand(node: ExpressionNode, parent: number): string {
  const text = printExpression(node);
  return PRECEDENCE[node.kind] < parent ? `(${text})` : text;
}

/**
 * The canonical text of an expression: `and`/`or` as words, `!` for negation, parentheses only where
 * precedence needs them, `permitAll`/`denyAll` bare, every other call with parentheses and `, ` between
 * arguments, strings in single quotes. Parsing the result gives the same tree (positions aside).
 */
export function printExpression(node: ExpressionNode): string {
  switch (node.kind) {
    case "or":
    case "and": {
      // `a or (b or c)` keeps its parentheses: the tree is n-ary, so a nested node of the same kind was written so.
      const own = PRECEDENCE[node.kind] + 1;
      return node.operands.map((operand) => printOperand(operand, own)).join(` ${node.kind} `);
    }
    case "not":
      return `!${printOperand(node.operand, PRECEDENCE.not)}`;
    case "boolean":
      return String(node.value);
    case "call": {
      const name = node.receiver === undefined ? node.name : `#${node.receiver}.${node.name}`;
      if (
        !node.parenthesized ||
        (node.args.length === 0 && (node.name === "permitAll" || node.name === "denyAll"))
      ) {
        return name;
      }
      return `${name}(${node.args.map(printArgument).join(", ")})`;
    }
  }
}
