// Method protection: @Protectable, METHOD policies before the call, ownership on the returned entity.
export { MethodAuthorizationManager, type MethodDecision } from "./method-authorization-manager.js";
export {
  isOwnerOf,
  PolicyMethodAuthorizationManager,
  type PolicyMethodAuthorizationManagerOptions,
} from "./policy-method-authorization-manager.js";
export { type CompiledMethodPolicy, MethodPolicySet } from "./method-policy-set.js";
export { MethodSecurity } from "./method-security.js";
export { AuthorityPermissionEvaluator, PermissionEvaluator } from "./permission-evaluator.js";
export {
  methodIdentifier,
  Protectable,
  type ProtectableMethod,
  type ProtectableOptions,
  protectableMethodsOf,
} from "./protectable.js";
export { SecurityContextHolder } from "./security-context-holder.js";
