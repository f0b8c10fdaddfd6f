// @platform/core/authz: dynamic authorization's services a host calls (the PAP, method protection,
// zero-trust actions), the default adapters of its ports (the ports themselves are in /ports) and the
// types of what they take and answer. The PDP's compiled forms, filters and validators stay inside.

// The module's error codes merge into PlatformErrorCodes (types); its plugin contributes the table.
import "./authz-error-codes.js";

// Plugging in
export { authorizationAdminApi } from "./admin/authz-admin-api.js";
export { authzPlugin } from "./authz-plugin.js";
export { sessionHandle, zeroTrustPlugin } from "./zerotrust/zero-trust-plugin.js";
export { dynamicAuthorization } from "./pdp/dynamic-authorization.js";
export { zeroTrustChecked } from "./pdp/zero-trust-checked.js";

// Policies (PAP, PRP) and their expressions
export {
  APPROVAL_STATUSES,
  type ApprovalStatus,
  type NewPolicy,
  POLICY_EFFECTS,
  POLICY_HTTP_METHODS,
  POLICY_SOURCES,
  type Policy,
  type PolicyChanges,
  type PolicyCondition,
  type PolicyEffect,
  type PolicyHttpMethod,
  type PolicyRule,
  type PolicySource,
  type PolicyTarget,
  TARGET_TYPES,
  type TargetType,
} from "./policy/policy.js";
export {
  InMemoryPolicyRepository,
  type InMemoryPolicyRepositoryOptions,
} from "./policy/in-memory-policy-repository.js";
export { PolicyAdministrationService } from "./policy/policy-administration-service.js";
export { DefaultPolicyRetrievalPoint } from "./policy/policy-retrieval-point.js";
export type {
  PolicyCreateInput,
  PolicyUpdateInput,
  PolicyValidationIssue,
} from "./policy/policy-schema.js";
export {
  ExpressionCompiler,
  type ExpressionCompilerOptions,
  type ExpressionValidation,
} from "./expression/expression-compiler.js";
export type { EvaluationContext } from "./expression/evaluation-context.js";

// Deciding (PDP) and method protection (PEP)
export { COMBINING_ALGORITHMS, type CombiningAlgorithm } from "./pdp/combining-algorithm.js";
export { DecisionAuditQueue, type DecisionAuditStats } from "./pdp/decision-audit-queue.js";
export { DynamicAuthorizationManager } from "./pdp/dynamic-authorization-manager.js";
export type { PolicyDecision, PolicyTrailEntry } from "./pdp/policy-decision.js";
export { PolicyMethodAuthorizationManager } from "./method/policy-method-authorization-manager.js";
export { MethodSecurity } from "./method/method-security.js";
export { AuthorityPermissionEvaluator } from "./method/permission-evaluator.js";
export {
  Protectable,
  type ProtectableMethod,
  type ProtectableOptions,
} from "./method/protectable.js";
export { SecurityContextHolder } from "./method/security-context-holder.js";

// Zero trust
export {
  InMemoryZeroTrustActionStore,
  type InMemoryZeroTrustActionStoreOptions,
} from "./zerotrust/in-memory-zero-trust-action-store.js";
export { ZERO_TRUST_ACTIONS, type ZeroTrustAction } from "./zerotrust/zero-trust-action.js";
// The checks every ZeroTrustActionStore adapter makes, shared so a database adapter refuses what the default refuses.
export { checkZeroTrustListOptions, checkZeroTrustPut } from "./zerotrust/zero-trust-record-validation.js";
export {
  type ZeroTrustClearOptions,
  ZeroTrustActionService,
  type ZeroTrustSetOptions,
} from "./zerotrust/zero-trust-action-service.js";
export {
  parseZeroTrustSubject,
  type ZeroTrustSubject,
  type ZeroTrustSubjectKind,
  zeroTrustSessionSubject,
  zeroTrustUserSubject,
} from "./zerotrust/zero-trust-subject.js";
