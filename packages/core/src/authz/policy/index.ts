export {
  InMemoryPolicyRepository,
  type InMemoryPolicyRepositoryOptions,
} from "./in-memory-policy-repository.js";
export {
  APPROVAL_STATUSES,
  type ApprovalStatus,
  comparePolicies,
  isExecutable,
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
  requiresApproval,
  TARGET_SOURCE_TYPES,
  TARGET_TYPES,
  type TargetType,
} from "./policy.js";
export {
  MAX_POLICY_ID_LENGTH,
  MAX_POLICY_QUERY_LENGTH,
  PolicyAdminFilter,
  type PolicyAdminFilterOptions,
} from "./policy-admin-filter.js";
export {
  MAX_REJECTION_REASON_LENGTH,
  POLICY_ADMIN_AUTHORITY,
  PolicyAdministrationService,
  type PolicyAdministrationServiceOptions,
} from "./policy-administration-service.js";
export {
  type PolicyChange,
  PolicyChangeListener,
  type PolicyChangeType,
  policyChangeListenersOf,
} from "./policy-change-listener.js";
export { type EnforcedFields, enforcementChanged } from "./policy-enforcement.js";
export { checkPolicyExpressions, type PolicyExpressionTools } from "./policy-expression-check.js";
export { type PolicyFilter, PolicyRepository } from "./policy-repository.js";
export {
  DefaultPolicyRetrievalPoint,
  type DefaultPolicyRetrievalPointOptions,
  PolicyRetrievalPoint,
} from "./policy-retrieval-point.js";
export {
  assertProvenance,
  POLICY_LIMITS,
  type PolicyCreate,
  PolicyCreateSchema,
  type PolicyCreateInput,
  type PolicyUpdate,
  PolicyUpdateSchema,
  type PolicyUpdateInput,
  type PolicyValidationIssue,
  parsePolicyCreate,
  parsePolicyUpdate,
} from "./policy-schema.js";
