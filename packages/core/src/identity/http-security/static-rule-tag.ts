import type { AuthorizationManager } from "./authorization-manager.js";

/**
 * What a static authorization rule checks, recorded where the rule builder builds it, so a
 * platform's static rules can be listed (and mapped to policies): a role or authority check with
 * its values, one of the fixed rules, or a custom manager by the name it gave itself (`access`
 * when it gave none) or a contributed rule by its name and printable arguments.
 */
export type StaticRuleTag =
  | { readonly kind: "permitAll" | "denyAll" | "authenticated" | "anonymous" }
  | { readonly kind: "roles" | "authorities"; readonly values: readonly string[] }
  | { readonly kind: "custom"; readonly name: string; readonly args?: readonly string[] };

const NAMES = new WeakMap<AuthorizationManager, string>();

/**
 * Names a manager for listings of static rules: `access(manager)` is then tagged `{ kind: "custom",
 * name }` (the authorization module's `dynamicAuthorization()` is `dynamicAuthorization`).
 */
export function nameAuthorizationManager<M extends AuthorizationManager>(manager: M, name: string): M {
  NAMES.set(manager, name);
  return manager;
}

/** The tag of `access(manager)`: the manager's own name, or `access`. */
export function accessTag(manager: AuthorizationManager): StaticRuleTag {
  return { kind: "custom", name: NAMES.get(manager) ?? "access" };
}

/** The tag of a contributed rule: its name, and its arguments where they print (strings, numbers, booleans). */
export function contributedTag(name: string, args: readonly unknown[]): StaticRuleTag {
  return {
    kind: "custom",
    name,
    args: args.map((a) =>
      typeof a === "string" || typeof a === "number" || typeof a === "boolean" ? String(a) : "…",
    ),
  };
}
