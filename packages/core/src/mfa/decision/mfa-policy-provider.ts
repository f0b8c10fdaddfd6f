import type { InjectionToken } from "tsyringe";
import type { MfaDecision } from "./mfa-decision.js";
import type { MfaPolicyContext } from "./mfa-policy-context.js";

/**
 * Decides, after every primary authentication, whether the user must pass a second factor. The
 * platform registers `DefaultMfaPolicyProvider` only when the host registers none, so a host's
 * provider replaces the default. Callers treat a provider that throws as a failed sign-in, never
 * as NO_MFA_REQUIRED (fail closed).
 */
export interface MfaPolicyProvider {
  /** The decision for this primary authentication. */
  evaluateInitialMfaRequirement(ctx: MfaPolicyContext): Promise<MfaDecision>;
}

/** DI token of the MfaPolicyProvider port. */
export const MfaPolicyProvider: InjectionToken<MfaPolicyProvider> = Symbol.for("platform.MfaPolicyProvider");
