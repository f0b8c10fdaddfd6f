// @keyward/core: what a host writes code against to run the platform. Start it (createPlatform and the
// plugins), configure it (the security DSL, its option classes and the types its methods take, request
// matchers, properties), and read the caller in a handler (currentAuthentication, the CSRF helpers for
// its pages). Errors are in /errors, ports in /ports, what adapters share with the defaults in
// /adapter-kit, each module's services and events in /identity, /authz, /prompts and /decisions, the
// HTTP binding's building blocks in /web, contract suites in /testing. The defaults themselves
// (in-memory adapters, internal services, state machines) are registered by the plugins, not exported.
// The API report (docs/api/core.api.md, compared by `pnpm report:surface`) pins this surface with every other subpath's.

// Every module's error codes merge into PlatformErrorCodes (types); a platform knows those its plugins contribute.
import "./error-code-tables.js";
// The types of `.mfa()` and of the `recentFactor` rule (declaration merging), which mfaPlugin (exported
// here) contributes: imported here too, since a declaration file keeps only the imports its types name.
import "./mfa/dsl/mfa-dsl.js";
import "./mfa/step-up/recent-factor.js";

// Start
export { createPlatform, type Platform, type PlatformOptions } from "./kernel/platform.js";
export type { PlatformPlugin, PluginContext, PortOverrides } from "./kernel/plugin.js";
export { createIdentityPlugin, identityPlugin } from "./identity/identity-plugin.js";
export { mfaPlugin } from "./mfa/mfa-plugin.js";
export { recoveryCodesPlugin, totpPlugin } from "./factors/index.js";
export { authzPlugin } from "./authz/authz-plugin.js";
export { resourcesPlugin } from "./resources/resources-plugin.js";
export { policyCenterPlugin } from "./policy-center/policy-center-plugin.js";
export { zeroTrustPlugin } from "./authz/zerotrust/zero-trust-plugin.js";
export { createPromptInspectionPlugin } from "./inspection/inspection-plugin.js";

// Configure: the security DSL and the types its methods take. The login option classes (form, REST,
// one-time token, passkey) and option bags are reached through the DSL's callbacks, not by name (the
// surface cap: docs/decisions/platform.md#option-types-reached-through-signatures).
export { SecurityConfiguration, SecurityRegistry } from "./identity/dsl/security-registry.js";
export { MfaOptions } from "./mfa/dsl/mfa-options.js";
export { HttpSecurity } from "./identity/http-security/http-security.js";
export {
  type AuthorizationDecision,
  type AuthorizationManager,
  rules,
} from "./identity/http-security/authorization-manager.js";
export type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
  LoginContext,
} from "./identity/handlers/authentication-handlers.js";
export type { OneTimeTokenGenerationSuccessHandler } from "./identity/ott/one-time-token-generation-success-handler.js";
export type { NextFilter, SecurityFilter } from "./identity/chain/security-filter.js";
export {
  andMatcher,
  antMatcher,
  anyRequest,
  type HttpMethod,
  type MatchableRequest,
  notMatcher,
  orMatcher,
  type RequestMatcher,
} from "./web/request-matcher.js";
export {
  defineProperty,
  envNameOf,
  PlatformProperties,
  type PropertyDefinition,
  prop,
} from "./kernel/properties.js";
export { ServerAddress } from "./kernel/server-address.js";
export { platformPasswordHasher } from "./identity/password/platform-password-hasher.js";
export { nearestName } from "./kernel/nearest-name.js";

// Handle a request
export { type Authentication, currentAuthentication } from "./identity/authentication/authentication.js";
export { csrfHiddenInput, csrfMetaTags } from "./identity/csrf/csrf-html.js";
export { type CsrfToken, csrfToken } from "./identity/csrf/csrf-token.js";
