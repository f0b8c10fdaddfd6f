// @keyward/core/mfa: what a host calls on the MFA module at run time (`MfaRuntime.publishCustom`, the
// custom events its listeners receive) and the types of `.mfa()` (loaded with this subpath). The plugin
// is in the root; the MFA ports and the events listeners receive are in /ports; the policy providers,
// the risk analyzer, the state machine and the default adapters are registered by the plugin.

// The module's error codes merge into PlatformErrorCodes (types); its plugin contributes the table.
import "./mfa-error-codes.js";
// The types of `.mfa()` (declaration merging on the registry DSL); mfaPlugin contributes the method.
import "./dsl/mfa-dsl.js";

export { MfaRuntime } from "./flow/mfa-runtime.js";
