import type { ExpressionEvaluator } from "./compiled-expression.js";
import type { ArgumentIdentifier, ArgumentNode, CallReceiver } from "./expression-node.js";

/** What one parameter accepts: a string literal (optionally checked), a boolean literal, or one identifier. */
export type ParamSpec =
  | { readonly kind: "string"; readonly check?: (value: string) => string | undefined }
  | { readonly kind: "boolean" }
  | { readonly kind: "identifier"; readonly name: ArgumentIdentifier };

/** A problem with one argument that only shows when several are looked at together. */
export interface ArgumentProblem {
  readonly index: number;
  readonly reason: string;
}

/**
 * One function of the language: its signature (checked by the parser, with positions) and how it
 * compiles to a closure. `build` runs only on arguments that passed the signature and `check`.
 */
export interface FunctionDefinition {
  readonly receiver: CallReceiver | undefined;
  readonly name: string;
  /** Fixed leading parameters. */
  readonly params: readonly ParamSpec[];
  /** A repeated tail parameter (one or more occurrences), e.g. the roles of `hasAnyRole`. */
  readonly rest?: ParamSpec;
  /** Whether the bare form without parentheses is allowed (`permitAll`, `denyAll`). */
  readonly bare?: boolean;
  readonly usesZeroTrust?: boolean;
  readonly usesMethodContext?: boolean;
  /** Cross-argument checks (e.g. a date range's order). */
  readonly check?: (args: readonly ArgumentNode[]) => ArgumentProblem | undefined;
  readonly build: (args: readonly ArgumentNode[]) => ExpressionEvaluator;
}

/** A string parameter that must not be empty. */
export const NON_EMPTY: ParamSpec = {
  kind: "string",
  check: (value) => (value.length === 0 ? "must not be empty" : undefined),
};

/** The value of a validated string argument. */
export function stringArg(args: readonly ArgumentNode[], index: number): string {
  const arg = args[index];
  return arg?.kind === "string" ? arg.value : "";
}

/** The values of the validated string arguments from `from` on. */
export function stringArgs(args: readonly ArgumentNode[], from = 0): string[] {
  const values: string[] = [];
  for (let i = from; i < args.length; i++) values.push(stringArg(args, i));
  return values;
}

/** The name a definition is called by in messages: `hasRole` or `#ai.hasAction`. */
export function displayName(receiver: CallReceiver | undefined, name: string): string {
  return receiver === undefined ? name : `#${receiver}.${name}`;
}

/** Why an argument does not fit its parameter, or undefined. */
function argumentProblem(spec: ParamSpec, arg: ArgumentNode): string | undefined {
  if (spec.kind === "string")
    return arg.kind === "string" ? spec.check?.(arg.value) : "expected a quoted string";
  if (spec.kind === "boolean") return arg.kind === "boolean" ? undefined : "expected true or false";
  return arg.kind === "identifier" && arg.name === spec.name ? undefined : `expected ${spec.name}`;
}

/**
 * Checks a call's arguments against a definition: arity, each argument's kind and literal, then the
 * cross-argument check. Returns where it goes wrong (`open` is the position of the call's `(`) and why.
 */
export function signatureProblem(
  definition: FunctionDefinition,
  args: readonly ArgumentNode[],
  open: number,
): { position: number; reason: string } | undefined {
  const shown = displayName(definition.receiver, definition.name);
  const fixed = definition.params.length;
  const plural = (n: number) => `${n} argument${n === 1 ? "" : "s"}`;
  if (definition.rest === undefined && args.length !== fixed) {
    const position = args.length > fixed ? (args[fixed] as ArgumentNode).position : open;
    return { position, reason: `${shown} expects ${plural(fixed)}, got ${args.length}` };
  }
  if (definition.rest !== undefined && args.length <= fixed) {
    return { position: open, reason: `${shown} expects at least ${plural(fixed + 1)}, got ${args.length}` };
  }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as ArgumentNode;
    const reason = argumentProblem((i < fixed ? definition.params[i] : definition.rest) as ParamSpec, arg);
    if (reason !== undefined)
      return { position: arg.position, reason: `argument ${i + 1} of ${shown}: ${reason}` };
  }
  const problem = definition.check?.(args);
  if (problem === undefined) return undefined;
  const position = (args[problem.index] as ArgumentNode).position;
  return { position, reason: `argument ${problem.index + 1} of ${shown}: ${problem.reason}` };
}
