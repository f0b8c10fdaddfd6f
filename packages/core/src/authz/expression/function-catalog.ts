import { AUTHORITY_FUNCTIONS } from "./authority-functions.js";
import { ENVIRONMENT_FUNCTIONS } from "./environment-functions.js";
import type { CallReceiver } from "./expression-node.js";
import type { FunctionDefinition } from "./function-definition.js";
import { METHOD_FUNCTIONS } from "./method-functions.js";
import { ZERO_TRUST_FUNCTIONS } from "./zero-trust-functions.js";

// A Map, not an object literal: `constructor` or `__proto__` must never resolve to anything.
const CATALOG = new Map<string, FunctionDefinition>(
  [...AUTHORITY_FUNCTIONS, ...ENVIRONMENT_FUNCTIONS, ...ZERO_TRUST_FUNCTIONS, ...METHOD_FUNCTIONS].map(
    (definition) => [key(definition.receiver, definition.name), definition],
  ),
);

function key(receiver: CallReceiver | undefined, name: string): string {
  return `${receiver ?? ""}#${name}`;
}

/** The definition of `name` on `receiver` (undefined for root functions), if the language has one. */
export function findFunction(
  receiver: CallReceiver | undefined,
  name: string,
): FunctionDefinition | undefined {
  return CATALOG.get(key(receiver, name));
}

/** Every root function name (`hasRole`, `isAllowed`, …), e.g. to tell them from bare authority words. */
export const ROOT_FUNCTION_NAMES: ReadonlySet<string> = new Set(
  [...CATALOG.values()].filter((definition) => definition.receiver === undefined).map((d) => d.name),
);
