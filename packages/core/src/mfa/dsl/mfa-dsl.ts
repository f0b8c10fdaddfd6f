import type { SecurityRegistryMethod } from "../../identity/dsl/security-registry-method.js";
import { MfaOptions } from "./mfa-options.js";

declare module "../../identity/dsl/method-options.js" {
  interface SignInMethodKinds {
    mfa: MfaOptions;
  }
}

declare module "../../identity/dsl/security-registry.js" {
  interface SecurityRegistry {
    /** An MFA flow (order 200); its chain needs `mfaPlugin` installed after the identity plugin. */
    // StateStep through import(): a declaration file drops an import only an augmentation uses.
    mfa(
      customizer?: (options: MfaOptions) => void,
    ): import("../../identity/dsl/security-registry.js").StateStep;
  }
}

/**
 * `.mfa()` of the registry DSL, which `mfaPlugin` contributes to its platform (the types above are
 * declaration merging only: on a platform without mfaPlugin, `.mfa()` throws CONFIGURATION_INVALID).
 */
export const mfaRegistryMethod: SecurityRegistryMethod = Object.freeze({
  name: "mfa",
  create: () => new MfaOptions(),
});
