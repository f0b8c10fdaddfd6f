import type { StateStep } from "../../identity/dsl/security-registry.js";
import { extendSecurityRegistry } from "../../identity/dsl/security-registry.js";
import { MfaOptions } from "./mfa-options.js";

declare module "../../identity/dsl/method-options.js" {
  interface SignInMethodKinds {
    mfa: MfaOptions;
  }
}

declare module "../../identity/dsl/security-registry.js" {
  interface SecurityRegistry {
    /** An MFA flow (order 200); its chain needs `mfaPlugin` installed after the identity plugin. */
    mfa(customizer?: (options: MfaOptions) => void): StateStep;
  }
}

/** A fresh `.mfa()` registration. */
function createMfaOptions(): MfaOptions {
  return new MfaOptions();
}

// `.mfa()` becomes a method of every SecurityRegistry when the MFA module loads (mfa-plugin.ts and
// the module's index import this file), so a host's `security` callback can call it.
extendSecurityRegistry("mfa", createMfaOptions);
