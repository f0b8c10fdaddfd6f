import type { InjectionToken } from "tsyringe";
import type { Authentication } from "../../identity/authentication/authentication.js";
import type { AuthorizationManager } from "../../identity/http-security/authorization-manager.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { ZeroTrustAction } from "../zerotrust/zero-trust-action.js";
import type { CombiningAlgorithm } from "./combining-algorithm.js";
import type { PolicySetReport } from "./compiled-policy-set.js";
import type { PolicyDecision, PolicyTrailEntry } from "./policy-decision.js";
import type { RequestFacts } from "./policy-evaluation.js";

/**
 * The dynamic (policy-driven) authorization of URLs that `anyRequest().access(dynamicAuthorization())`
 * delegates to; the default is DynamicAuthorizationManager (the PDP over compiled URL policies).
 */
export interface UrlAuthorizationManager extends AuthorizationManager {
  /** Loads the URL policies (start-up). */
  initialize(): Promise<PolicySetReport>;
  /** Rebuilds from the policy store (on every policy change); a failing store keeps the old set and rejects. */
  reload(): Promise<PolicySetReport>;
  /** Decides one request: the decision at once when nothing had to be looked up, else a promise. */
  check(
    authentication: Authentication | undefined,
    exchange: HttpExchange,
  ): PolicyDecision | Promise<PolicyDecision>;
  /** What the current policies decide for `facts` and the trail of matching policies (the simulator); not audited. */
  explain(
    facts: RequestFacts,
    zeroTrustAction: ZeroTrustAction | undefined,
  ): { decision: PolicyDecision; trail: PolicyTrailEntry[]; algorithm: CombiningAlgorithm };
  /** Optional: how many requests `check` (or `decide`) granted and denied since start (metrics read it). */
  decisionCounts?(): { readonly granted: number; readonly denied: number };
}

/** DI token of the URL authorization manager (registered by the authorization plugin). */
export const UrlAuthorizationManager: InjectionToken<UrlAuthorizationManager> = Symbol.for(
  "platform.UrlAuthorizationManager",
);
