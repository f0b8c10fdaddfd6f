// The decision point: URL policies compiled and indexed by path, combined, explained and audited.
export { COMBINING_ALGORITHMS, type CombiningAlgorithm, type PolicyOutcome } from "./combining-algorithm.js";
export {
  CompiledPolicySet,
  type CompiledPolicy,
  type PolicyNote,
  type PolicySetReport,
} from "./compiled-policy-set.js";
export {
  DecisionAuditQueue,
  type DecisionAuditQueueOptions,
  type DecisionAuditStats,
} from "./decision-audit-queue.js";
export { dynamicAuthorization } from "./dynamic-authorization.js";
export {
  DynamicAuthorizationManager,
  type DynamicAuthorizationManagerOptions,
} from "./dynamic-authorization-manager.js";
export { PathPatternIndex, type IndexedTarget } from "./path-pattern-index.js";
export { covers } from "./pattern-coverage.js";
export type { PolicyDecision, PolicyTrailEntry } from "./policy-decision.js";
export type { RequestFacts, RequestTarget } from "./policy-evaluation.js";
export { PolicySimulationFilter, type PolicySimulationFilterOptions } from "./policy-simulation-filter.js";
export { ResolverZeroTrustEvaluator } from "./resolver-zero-trust-evaluator.js";
export { UrlAuthorizationManager } from "./url-authorization-manager.js";
export type { ZeroTrustEvaluator, ZeroTrustQuery, ZeroTrustVerdict } from "./zero-trust-evaluator.js";
