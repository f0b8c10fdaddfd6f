import type { InjectionToken } from "tsyringe";
import type { JwtKeys } from "./jwt-keys.js";

/**
 * Where the access-token keys come from (a file, a KMS, a vault). Read once at start by the identity
 * module, which builds the TokenService on the keys it returns; the default reads the JWT properties.
 */
export interface JwtKeySource {
  /** The keys of this platform; a bad configuration rejects with PlatformError `CONFIGURATION_INVALID`. */
  load(): Promise<JwtKeys>;
}

/** DI token of the JWT key source. */
export const JwtKeySource: InjectionToken<JwtKeySource> = Symbol.for("platform.JwtKeySource");
