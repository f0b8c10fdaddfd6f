import type { InjectionToken } from "tsyringe";
import type { DecisionEvent } from "../../decisions/pipeline/decision-event.js";
import { PLATFORM_GLOBAL_SCOPE } from "../registry/release-registry.js";

/** The registry scope and tenant a decision's request belongs to. */
export interface RequestScope {
  /** The registry scope whose releases it runs (blank means PLATFORM_GLOBAL). */
  readonly registryScope: string;
  /** The tenant, for a CANARY release narrowed by `canary_tenants`; absent: outside any tenant list. */
  readonly tenant?: string | undefined;
}

/**
 * Which registry scope and tenant a decision's request belongs to: the registry selector runs the
 * scope's releases (else PLATFORM_GLOBAL's) and narrows a CANARY release by the tenant. A host with
 * tenants or per-scope releases implements it over what the event carries (its user, its target);
 * the default puts every request in PLATFORM_GLOBAL with no tenant. Called once per decision on the
 * decision's path: synchronous, from memory, and it must not throw (a throw is a selector failure:
 * the build default runs, recorded).
 */
export interface RequestScopeResolver {
  resolve(event: DecisionEvent): RequestScope;
}

/** DI token of the RequestScopeResolver port. */
export const RequestScopeResolver: InjectionToken<RequestScopeResolver> = Symbol.for(
  "platform.RequestScopeResolver",
);

/** The default resolver: PLATFORM_GLOBAL, no tenant, for every request. */
export const platformGlobalScopeResolver: RequestScopeResolver = Object.freeze({
  resolve: (): RequestScope => GLOBAL,
});

const GLOBAL: RequestScope = Object.freeze({ registryScope: PLATFORM_GLOBAL_SCOPE });
