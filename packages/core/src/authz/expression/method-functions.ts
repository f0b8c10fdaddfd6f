import type { ExpressionEvaluator } from "./compiled-expression.js";
import type { EvaluationContext } from "./evaluation-context.js";
import { type FunctionDefinition, NON_EMPTY, stringArg } from "./function-definition.js";

/**
 * True when the returned entity's owner field names the caller. The field is read with a plain
 * property read (so getters of entity classes work), but only string and finite-number values count:
 * `constructor`, `__proto__` or `toString` yield functions or objects and never match. An empty owner
 * never matches. The ROLE_ADMIN bypass of `@Protectable` belongs to method protection, not here.
 */
export function isOwner(ctx: EvaluationContext): boolean {
  const authentication = ctx.authentication;
  const returned = ctx.returnObject;
  const field = ctx.ownerField;
  if (authentication === undefined || !field || typeof returned !== "object" || returned === null)
    return false;
  const raw: unknown = (returned as Record<string, unknown>)[field];
  let owner: string;
  if (typeof raw === "string") owner = raw;
  else if (typeof raw === "number" && Number.isFinite(raw)) owner = String(raw);
  else return false;
  return owner !== "" && (owner === authentication.username || owner === authentication.userId);
}

/**
 * Method-level functions. `hasPermission(resource, action)` asks `ctx.hasPermission` and is false when
 * the context has none (URL evaluation); `#ownership.isOwner(authentication, returnObject)` takes exactly
 * those two names, the only identifiers the language knows.
 */
export const METHOD_FUNCTIONS: readonly FunctionDefinition[] = [
  {
    receiver: undefined,
    name: "hasPermission",
    params: [NON_EMPTY, NON_EMPTY],
    usesMethodContext: true,
    build: (args): ExpressionEvaluator => {
      const resource = stringArg(args, 0);
      const action = stringArg(args, 1);
      return (ctx) => ctx.hasPermission?.(resource, action) === true;
    },
  },
  {
    receiver: "ownership",
    name: "isOwner",
    params: [
      { kind: "identifier", name: "authentication" },
      { kind: "identifier", name: "returnObject" },
    ],
    usesMethodContext: true,
    build: () => isOwner,
  },
];
