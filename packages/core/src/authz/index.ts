// Dynamic authorization: policies (PAP/PRP), expressions, the PDP/PEP, method protection, zero trust.
export * from "./expression/index.js";
export * from "./method/index.js";
export * from "./pdp/index.js";
export * from "./policy/index.js";
export * from "./zerotrust/index.js";
export { authorizationAdminApi } from "./authz-admin-api.js";
export { authzPlugin, sessionHandle } from "./authz-plugin.js";
export {
  AUTHZ_PROPERTIES,
  POLICY_COMBINING_ALGORITHM,
  POLICY_NO_MATCH_DECISION,
  POLICY_TIME_ZONE,
  resolveTimeZone,
} from "./authz.properties.js";
export {
  DecisionAuditQueueToken,
  ExpressionCompilerToken,
  MethodSecurityToken,
  PolicyAdministrationServiceToken,
  PolicyExpressionConverterToken,
  SecurityContextHolderToken,
} from "./authz-tokens.js";
