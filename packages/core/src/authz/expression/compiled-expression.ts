import type { EvaluationContext } from "./evaluation-context.js";

/** A compiled expression's body: reads the context only, allocates nothing in the common paths. */
export type ExpressionEvaluator = (ctx: EvaluationContext) => boolean;

/** A policy expression parsed and validated once, ready to be evaluated many times. */
export interface CompiledExpression {
  /** The text it was compiled from, as given. */
  readonly source: string;
  /**
   * Decides the expression for one request. Throws only on truly unexpected runtime errors (for
   * instance an unknown `ctx.timeZone`, or a throwing `ctx.hasPermission`); the PDP treats a throw as deny.
   */
  evaluate(ctx: EvaluationContext): boolean;
  /** True when any AI / zero-trust function is used (so the PEP must look the action up). */
  readonly usesZeroTrust: boolean;
  /** True when `hasPermission`, `#ownership` or `returnObject` is used (method-level context needed). */
  readonly usesMethodContext: boolean;
}
