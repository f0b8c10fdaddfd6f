import type { InjectionToken } from "tsyringe";
import type { MethodOptions } from "./method-options.js";

/**
 * A method a plugin adds to its platform's registry DSL: `registry.<name>(customizer)` registers the
 * options `create()` returns (the MFA plugin adds `mfa`). A family: a plugin adds one with
 * `ctx.registerMember(SecurityRegistryMethod, { useValue })`, and the registry handed to the
 * identity plugin's `security` callback has exactly the methods of that platform's plugins. The
 * method's type comes by declaration merging on `SignInMethodKinds` and `SecurityRegistry` (types
 * are not run-time state); on a platform without the plugin, calling it throws CONFIGURATION_INVALID.
 */
export interface SecurityRegistryMethod {
  /** The method's name, also the `kind` of the options it creates (`mfa`). */
  readonly name: string;
  /** Fresh options for one registration. */
  create(): MethodOptions;
}

/** DI token of the SecurityRegistryMethod family. */
export const SecurityRegistryMethod: InjectionToken<SecurityRegistryMethod> = Symbol.for(
  "platform.SecurityRegistryMethod",
);
