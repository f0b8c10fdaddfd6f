import { ZERO_TRUST_ACTIONS, type ZeroTrustAction } from "../zerotrust/zero-trust-action.js";
import type { ExpressionEvaluator } from "./compiled-expression.js";
import { quoteLiteral } from "./expression-error.js";
import { type FunctionDefinition, type ParamSpec, stringArg, stringArgs } from "./function-definition.js";

const PENDING: ZeroTrustAction = "PENDING_ANALYSIS";

/** An action name literal: exactly one of ZERO_TRUST_ACTIONS (upper case), checked when compiling. */
const ACTION: ParamSpec = {
  kind: "string",
  check: (value) =>
    (ZERO_TRUST_ACTIONS as readonly string[]).includes(value)
      ? undefined
      : `unknown zero-trust action ${quoteLiteral(value)}; expected one of ${ZERO_TRUST_ACTIONS.join(", ")}`,
};

/** True when the caller's action is `action`; no analysis (undefined) counts as PENDING_ANALYSIS. */
function actionIs(action: ZeroTrustAction): ExpressionEvaluator {
  if (action === PENDING)
    return (ctx) => ctx.zeroTrustAction === undefined || ctx.zeroTrustAction === PENDING;
  return (ctx) => ctx.zeroTrustAction === action;
}

function actionIn(actions: readonly string[]): ExpressionEvaluator {
  return (ctx) => actions.includes(ctx.zeroTrustAction ?? PENDING);
}

/** `hasActionOrDefault(default, actions…)`: the default when no analysis exists, else membership. */
function actionInOrDefault(fallback: boolean, actions: readonly string[]): ExpressionEvaluator {
  return (ctx) => {
    const action = ctx.zeroTrustAction;
    return action === undefined ? fallback : actions.includes(action);
  };
}

const SIGNATURES: readonly Omit<FunctionDefinition, "receiver" | "usesZeroTrust">[] = [
  { name: "isAllowed", params: [], build: () => actionIs("ALLOW") },
  { name: "isBlocked", params: [], build: () => actionIs("BLOCK") },
  { name: "needsChallenge", params: [], build: () => actionIs("CHALLENGE") },
  { name: "needsEscalation", params: [], build: () => actionIs("ESCALATE") },
  { name: "isPendingAnalysis", params: [], build: () => actionIs(PENDING) },
  { name: "hasAction", params: [ACTION], build: (args) => actionIs(stringArg(args, 0) as ZeroTrustAction) },
  { name: "hasActionIn", params: [], rest: ACTION, build: (args) => actionIn(stringArgs(args)) },
  {
    name: "hasActionOrDefault",
    params: [{ kind: "boolean" }],
    rest: ACTION,
    build: (args) => actionInOrDefault(args[0]?.kind === "boolean" && args[0].value, stringArgs(args, 1)),
  },
];

/**
 * The zero-trust functions, callable as `#ai.name(…)` and also without the prefix, so policies written
 * either way work (`isAllowed()`, `needsChallenge()`, …). `ctx.zeroTrustAction` undefined means no analysis
 * exists: every function treats it as PENDING_ANALYSIS except `hasActionOrDefault`, which returns its default.
 */
export const ZERO_TRUST_FUNCTIONS: readonly FunctionDefinition[] = SIGNATURES.flatMap((signature) => [
  { ...signature, receiver: "ai" as const, usesZeroTrust: true },
  { ...signature, receiver: undefined, usesZeroTrust: true },
]);
