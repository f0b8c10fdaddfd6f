// @keyward/core/identity: what a host writes against the identity module beyond the DSL (which is in
// the root): the extension points a plugin fills (DSL methods, static rules), the services a host
// calls, and the events identity publishes. The default adapters of its ports, its filters, handlers,
// property definitions and helpers are registered by the identity plugin and stay inside the module
// (the ports are in /ports, what adapters share with the defaults in /adapter-kit).

// The module's error codes merge into PlatformErrorCodes (types); its plugin contributes the table.
import "./identity-error-codes.js";

// Extending the registry DSL and the static rules (how the MFA plugin adds `.mfa()` and `recentFactor`)
export { MethodOptions, type SignInMethodKinds } from "./dsl/method-options.js";
export { SecurityRegistryMethod } from "./dsl/security-registry-method.js";
export type { ContributedRules } from "./http-security/authorization-manager.js";
export { ContributedRule } from "./http-security/contributed-rule.js";

// Services a host mounts or calls
export { FilterChainProxy } from "./chain/filter-chain-proxy.js";
export { userAdminApi } from "./users/admin/user-admin-api.js";
export { restoreAdministrator } from "./users/admin/restore-administrator.js";
// `platform keys list | rotate`: the key ring as an operator sees it (never the material)
export { KeyRingAdmin } from "./tokens/key-ring-admin.js";
export { OTT_OUTBOX_FILE } from "./ott/ott.properties.js";

// Events identity publishes (not awaited): a completed primary sign-in, a denied request, passkeys
export {
  ACCESS_DENIED_EVENT,
  type AccessDeniedPayload,
  SIGN_IN_COMPLETED_EVENT,
  type SignInCompletedPayload,
} from "./events/identity-events.js";
export { PASSKEY_EVENTS } from "./passkey/passkey-events.js";
