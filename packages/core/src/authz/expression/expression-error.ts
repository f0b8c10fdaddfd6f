import { PlatformError } from "../../kernel/platform-error.js";

/** The error code of every invalid policy expression (syntax, unknown function, arity, bad literal). */
export const POLICY_EXPRESSION_INVALID = "POLICY_EXPRESSION_INVALID";

/** Longest expression text copied into error details, so a hostile megabyte never reaches a log whole. */
const MAX_DETAIL_LENGTH = 4096;

/**
 * The error for an invalid expression: `details` carry the expression (cut to 4,096 characters),
 * the 0-based UTF-16 offset of the problem and a short reason.
 */
export function expressionError(expression: string, position: number, reason: string): PlatformError {
  const shown =
    expression.length > MAX_DETAIL_LENGTH ? `${expression.slice(0, MAX_DETAIL_LENGTH)}…` : expression;
  return new PlatformError(POLICY_EXPRESSION_INVALID, `Invalid policy expression at ${position}: ${reason}`, {
    details: { expression: shown, position, reason },
  });
}

/** Describes one character for an error message without echoing control or invisible characters. */
export function describeCharacter(source: string, position: number): string {
  const code = source.codePointAt(position) ?? 0;
  if (code >= 0x21 && code <= 0x7e) return `'${String.fromCharCode(code)}'`;
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Quotes a literal for an error message, cut to 40 characters, control characters escaped. */
export function quoteLiteral(value: string): string {
  return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}…` : JSON.stringify(value);
}
