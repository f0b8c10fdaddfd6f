import type { PasskeyCredentialRepository } from "../../identity/passkey/passkey-credential-repository.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { FACTOR_TYPES, type FactorType } from "../factor-type.js";
import { MfaDecision } from "./mfa-decision.js";
import type { MfaPolicyContext } from "./mfa-policy-context.js";
import type { MfaPolicyProvider } from "./mfa-policy-provider.js";

/** Which factors one user can use right now (e.g. PASSKEY only with a registered credential). */
export type AvailableFactors = (userId: string) => Promise<readonly FactorType[]>;

/** Options of DefaultMfaPolicyProvider. */
export interface DefaultMfaPolicyProviderOptions {
  /** Authorities that require MFA (e.g. `ROLE_ADMIN`, from `platform.auth.mfa.requiredAuthorities`). */
  readonly requiredAuthorities: readonly string[];
  /** Authorities that exempt their holder from MFA even when a required one is held. Default none. */
  readonly exemptAuthorities?: readonly string[];
  /** The factors configuration allows; must not be empty. */
  readonly allowedFactors: readonly FactorType[];
  /** The factor types that exist (the family's offered members). Default the built-in OTT and PASSKEY. */
  readonly knownFactors?: readonly FactorType[];
  /** The factors the user can use; see `availableFactorsFor`. Called only for challenged users. */
  readonly availableFactors: AvailableFactors;
}

/**
 * The built-in policy: static rules from the user's authorities and configuration.
 * - A user holding an exempt authority, or no required one, needs no MFA.
 * - Otherwise the user is CHALLENGED with the factors that are allowed, offered by the flow and
 *   available to the user (in the flow's order); the reason names the first required authority held.
 * - When none is usable, or fewer than the flow requires, the challenge could never succeed, so the
 *   user is BLOCKED instead (a BLOCKED answer names the cause; a dead-end challenge would not).
 * Authorities match exactly (case-sensitive), as everywhere else in the platform.
 */
export class DefaultMfaPolicyProvider implements MfaPolicyProvider {
  private readonly required: readonly string[];
  private readonly exempt: ReadonlySet<string>;
  private readonly allowed: ReadonlySet<FactorType>;
  private readonly availableFactors: AvailableFactors;

  constructor(options: DefaultMfaPolicyProviderOptions) {
    const known = options.knownFactors ?? FACTOR_TYPES;
    const unknown = options.allowedFactors.filter((f) => !known.includes(f));
    if (options.allowedFactors.length === 0 || unknown.length > 0) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        `DefaultMfaPolicyProvider needs at least one allowed factor of ${known.join(", ")}`,
        { details: { allowedFactors: [...options.allowedFactors] } },
      );
    }
    this.required = [...new Set(options.requiredAuthorities)];
    this.exempt = new Set(options.exemptAuthorities ?? []);
    this.allowed = new Set(options.allowedFactors);
    this.availableFactors = options.availableFactors;
  }

  /** Applies the static rules; errors of `availableFactors` propagate (the caller fails closed). */
  async evaluateInitialMfaRequirement(ctx: MfaPolicyContext): Promise<MfaDecision> {
    const held = new Set(ctx.user.authorities);
    const exempt = [...held].find((a) => this.exempt.has(a));
    if (exempt !== undefined) return MfaDecision.noMfaRequired(`role ${exempt} is exempt from MFA`);
    const role = this.required.find((a) => held.has(a));
    if (role === undefined) return MfaDecision.noMfaRequired("no role of the user requires MFA");
    const available = new Set(await this.availableFactors(ctx.user.userId));
    const usable = [...new Set(ctx.flow.factors)].filter((f) => this.allowed.has(f) && available.has(f));
    if (usable.length === 0) return MfaDecision.blocked("no usable factor");
    if (usable.length < ctx.flow.requiredFactors) {
      return MfaDecision.blocked(
        `not enough usable factors: ${usable.length} of ${ctx.flow.requiredFactors} required`,
      );
    }
    return MfaDecision.challenged(`role ${role} requires MFA`, usable);
  }
}

/**
 * The built-in factors' `availableFactors`: OTT always (it is delivered to the account itself),
 * PASSKEY when the user has at least one registered credential. A platform reads the whole family
 * instead (`FactorCatalog.enrolledFor`); this stays for hosts that build the provider by hand.
 */
export function availableFactorsFor(deps: { passkeys: PasskeyCredentialRepository }): AvailableFactors {
  return async (userId) => {
    const credentials = await deps.passkeys.listByUser(userId);
    return credentials.length > 0 ? ["OTT", "PASSKEY"] : ["OTT"];
  };
}
