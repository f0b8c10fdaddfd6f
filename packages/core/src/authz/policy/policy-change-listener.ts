import type { DependencyContainer, InjectionToken } from "tsyringe";

/** What changed, for listeners that log or narrow their reload; most ignore it. */
export interface PolicyChange {
  /** The audit event type of the change, e.g. `policy.updated`. */
  type: PolicyChangeType;
  policyId: string;
}

/** The kinds of policy change the PAP announces. */
export type PolicyChangeType =
  | "policy.created"
  | "policy.updated"
  | "policy.deleted"
  | "policy.activated"
  | "policy.deactivated"
  | "policy.approved"
  | "policy.rejected";

/**
 * Told after every stored policy change (create, update, delete, approve, reject, activate,
 * deactivate), so the decision point reloads its cached policies (`reload()`). A family: register
 * any number under this token, each with its own `id`.
 * A failing listener is logged and audited and never undoes the change.
 */
export interface PolicyChangeListener {
  /** Stable name, used in logs and audit events when the listener fails. */
  readonly id: string;
  onPoliciesChanged(change: PolicyChange): Promise<void> | void;
}

/** DI token of the PolicyChangeListener family. */
export const PolicyChangeListener: InjectionToken<PolicyChangeListener> = Symbol.for(
  "platform.PolicyChangeListener",
);

/**
 * Reads the listener family from `container` on each call, and an empty list when none is
 * registered (tsyringe's `resolveAll` / `@injectAll` throw in that case). Late registrations are seen.
 */
export function policyChangeListenersOf(
  container: DependencyContainer,
): () => readonly PolicyChangeListener[] {
  return () =>
    container.isRegistered(PolicyChangeListener, true) ? container.resolveAll(PolicyChangeListener) : [];
}
