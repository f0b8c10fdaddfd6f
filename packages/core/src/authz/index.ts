// @keyward/core/authz: what a host writes against dynamic authorization beyond the DSL: the admin API
// it mounts and the rules it names in its chains (`dynamicAuthorization()`, `zeroTrustChecked()`), the
// services it calls (the PAP, method protection with `@Protectable`, zero-trust actions) with the types
// of what they take, and the event zero trust publishes. The plugins are in the root, the ports in
// /ports; the PDP's compiled forms, the expression compiler, the filters and validators and the default
// adapters stay inside.

// The module's error codes merge into PlatformErrorCodes (types); its plugin contributes the table.
import "./authz-error-codes.js";

// Mounting and the rules a chain names
export { authorizationAdminApi } from "./admin/authz-admin-api.js";
export { dynamicAuthorization } from "./pdp/dynamic-authorization.js";
export { zeroTrustChecked } from "./pdp/zero-trust-checked.js";

// Policies (the PAP)
export { PolicyAdministrationService } from "./policy/policy-administration-service.js";
export type { PolicyCreateInput } from "./policy/policy-schema.js";

// Method protection
export { MethodSecurity } from "./method/method-security.js";
export { Protectable } from "./method/protectable.js";
export { SecurityContextHolder } from "./method/security-context-holder.js";

// Zero trust
export type { ZeroTrustAction } from "./zerotrust/zero-trust-action.js";
export { ZeroTrustActionService } from "./zerotrust/zero-trust-action-service.js";
export { zeroTrustUserSubject } from "./zerotrust/zero-trust-subject.js";
