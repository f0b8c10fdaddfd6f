// The policy expression language: parse, print, compile (cached) and policy-to-expression conversion.
export type { CompiledExpression, ExpressionEvaluator } from "./compiled-expression.js";
export type { EvaluationContext } from "./evaluation-context.js";
export { POLICY_EXPRESSION_INVALID } from "./expression-error.js";
export {
  compileExpression,
  ExpressionCompiler,
  type ExpressionCompilerOptions,
  type ExpressionValidation,
} from "./expression-compiler.js";
export type {
  AndNode,
  ArgumentIdentifier,
  ArgumentNode,
  BooleanArgument,
  BooleanNode,
  CallNode,
  CallReceiver,
  ExpressionNode,
  IdentifierArgument,
  NotNode,
  NumberArgument,
  OrNode,
  SourceSpan,
  StringArgument,
} from "./expression-node.js";
export {
  MAX_ARGUMENTS,
  MAX_EXPRESSION_LENGTH,
  MAX_NESTING_DEPTH,
  parseExpression,
} from "./expression-parser.js";
export { printExpression } from "./expression-printer.js";
// Also the HTTP binding's trusted-proxy matcher: one IP/CIDR parser for the whole platform.
export { type IpRange, ipRangeContains, parseIpRange } from "./ip-range.js";
export {
  type ConvertedCondition,
  type ConvertiblePolicy,
  convertCondition,
  isBareAuthority,
  PolicyExpressionConverter,
  policyExpression,
} from "./policy-expression-converter.js";
