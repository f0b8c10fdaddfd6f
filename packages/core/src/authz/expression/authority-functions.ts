import type { ExpressionEvaluator } from "./compiled-expression.js";
import { type FunctionDefinition, NON_EMPTY, stringArgs } from "./function-definition.js";

const ROLE_PREFIX = "ROLE_";
/** Above this many listed authorities a Set beats comparing each one. */
const SET_THRESHOLD = 4;

const always: ExpressionEvaluator = () => true;
const never: ExpressionEvaluator = () => false;
const authenticated: ExpressionEvaluator = (ctx) => ctx.authentication !== undefined;
const anonymous: ExpressionEvaluator = (ctx) => ctx.authentication === undefined;

/** The authority a role stands for: `ADMIN` and `ROLE_ADMIN` both mean `ROLE_ADMIN`. */
export function roleAuthority(role: string): string {
  return role.startsWith(ROLE_PREFIX) ? role : ROLE_PREFIX + role;
}

/**
 * A closure true when the caller holds any of `wanted`. Callers hold 1-3 authorities, so a few
 * string comparisons are cheapest; long lists are precomputed into a Set. Nothing is allocated per call.
 */
export function anyAuthority(wanted: readonly string[]): ExpressionEvaluator {
  const unique = [...new Set(wanted)];
  if (unique.length === 1) {
    const only = unique[0] as string;
    return (ctx) => {
      const held = ctx.authentication?.authorities;
      if (held === undefined) return false;
      for (let i = 0; i < held.length; i++) if (held[i] === only) return true;
      return false;
    };
  }
  if (unique.length === 2) {
    const [first, second] = unique as [string, string];
    return (ctx) => {
      const held = ctx.authentication?.authorities;
      if (held === undefined) return false;
      for (let i = 0; i < held.length; i++) {
        const authority = held[i];
        if (authority === first || authority === second) return true;
      }
      return false;
    };
  }
  if (unique.length <= SET_THRESHOLD) {
    return (ctx) => {
      const held = ctx.authentication?.authorities;
      if (held === undefined) return false;
      for (let i = 0; i < held.length; i++) if (unique.includes(held[i] as string)) return true;
      return false;
    };
  }
  const set = new Set(unique);
  return (ctx) => {
    const held = ctx.authentication?.authorities;
    if (held === undefined) return false;
    for (let i = 0; i < held.length; i++) if (set.has(held[i] as string)) return true;
    return false;
  };
}

/**
 * Authentication and authority functions. We have no remember-me sign-in, so `isFullyAuthenticated()`
 * equals `isAuthenticated()` and `isRememberMe()` is always false; anonymous means "no authentication".
 */
export const AUTHORITY_FUNCTIONS: readonly FunctionDefinition[] = [
  { receiver: undefined, name: "permitAll", params: [], bare: true, build: () => always },
  { receiver: undefined, name: "denyAll", params: [], bare: true, build: () => never },
  { receiver: undefined, name: "isAuthenticated", params: [], build: () => authenticated },
  { receiver: undefined, name: "isFullyAuthenticated", params: [], build: () => authenticated },
  { receiver: undefined, name: "isAnonymous", params: [], build: () => anonymous },
  { receiver: undefined, name: "isRememberMe", params: [], build: () => never },
  {
    receiver: undefined,
    name: "hasRole",
    params: [NON_EMPTY],
    build: (args) => anyAuthority(stringArgs(args).map(roleAuthority)),
  },
  {
    receiver: undefined,
    name: "hasAnyRole",
    params: [],
    rest: NON_EMPTY,
    build: (args) => anyAuthority(stringArgs(args).map(roleAuthority)),
  },
  {
    receiver: undefined,
    name: "hasAuthority",
    params: [NON_EMPTY],
    build: (args) => anyAuthority(stringArgs(args)),
  },
  {
    receiver: undefined,
    name: "hasAnyAuthority",
    params: [],
    rest: NON_EMPTY,
    build: (args) => anyAuthority(stringArgs(args)),
  },
];
