// @platform/core: what a host needs to run the platform. Start it (createPlatform and the plugins),
// configure it (the security DSL and request matchers, properties), read the caller in a handler
// (currentAuthentication, the CSRF helpers for its pages) and the error type it throws. Ports are in
// /ports, each module's services and default adapters in /identity, /mfa and /authz, the HTTP
// binding's building blocks in /web, contract suites and doubles in /testing.
// The names-and-kinds snapshot (public-api.test.ts) pins this surface with every other subpath's.

// Every module's error codes merge into PlatformErrorCodes (types); a platform knows those its plugins contribute.
import "./error-code-tables.js";

// Start
export {
  createPlatform,
  type Platform,
  type PlatformOptions,
  type PlatformState,
} from "./kernel/platform.js";
export type {
  DefaultProvider,
  LifecycleHook,
  PlatformPlugin,
  PluginContext,
  PortOverrides,
} from "./kernel/plugin.js";
export { kernelPlugin } from "./kernel/kernel-plugin.js";
export {
  createIdentityPlugin,
  identityPlugin,
  type IdentityPluginOptions,
} from "./identity/identity-plugin.js";
export { mfaPlugin } from "./mfa/mfa-plugin.js";
export { authzPlugin } from "./authz/authz-plugin.js";
export { zeroTrustPlugin } from "./authz/zerotrust/zero-trust-plugin.js";

// Configure
export {
  type ChainDefinition,
  SecurityConfiguration,
  SecurityRegistry,
  securityRegistry,
} from "./identity/dsl/security-registry.js";
export { DEFAULT_URLS } from "./identity/dsl/default-urls.js";
export { FormLoginOptions, RestLoginOptions } from "./identity/dsl/form-login-options.js";
export { MfaOptions } from "./mfa/dsl/mfa-options.js";
export { OttLoginOptions, PasskeyLoginOptions } from "./identity/dsl/ott-options.js";
export { HttpSecurity, type SessionCreationPolicy } from "./identity/http-security/http-security.js";
export {
  type AuthorizationDecision,
  type AuthorizationManager,
  rules,
} from "./identity/http-security/authorization-manager.js";
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
  type PropertySource,
  type PropertySourcesInit,
  prop,
  resolveProperties,
} from "./kernel/properties.js";
export { ServerAddress } from "./kernel/server-address.js";

// Handle a request
export {
  type Authentication,
  type AuthenticationFactor,
  type AuthenticationMethod,
  currentAuthentication,
} from "./identity/authentication/authentication.js";
export { csrfHiddenInput, csrfMetaTags } from "./identity/csrf/csrf-html.js";
export { type CsrfToken, csrfToken } from "./identity/csrf/csrf-token.js";
export {
  isPlatformError,
  PlatformError,
  type PlatformErrorDetails,
  type PlatformErrorOptions,
} from "./kernel/platform-error.js";

// The kernel's default adapters (the ports themselves are in /ports)
export { SystemClock } from "./kernel/clock.js";
export { InProcessEventBus } from "./kernel/event-bus.js";
export { CryptoIdGenerator } from "./kernel/id-generator.js";
export { InMemoryAuditSink } from "./kernel/in-memory-audit-sink.js";
export { InMemoryKeyStore } from "./kernel/keys/in-memory-key-store.js";
export { InMemoryChangeCounters } from "./kernel/coordination/in-memory-change-counters.js";
export { InMemoryDistributedLock } from "./kernel/coordination/in-memory-distributed-lock.js";
// The checks every DistributedLock and ChangeCounters adapter makes, so a database adapter refuses what the default refuses.
export { checkTopic } from "./kernel/coordination/in-memory-change-counters.js";
export { checkLease } from "./kernel/coordination/in-memory-distributed-lock.js";
export { JsonLogger, redact } from "./kernel/logger.js";
