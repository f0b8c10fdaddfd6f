import { PlatformError } from "../../kernel/platform-error.js";
import type { MfaOptions } from "./mfa-options.js";

/**
 * The MFA rules `build()` enforces: exactly one primary (form or REST), at least one secondary factor,
 * no factor type twice, and requiredFactors within 1..factors: refused at build rather than accepted,
 * since a larger N builds a flow that can never succeed.
 */
export function validateMfaFlow(options: MfaOptions): void {
  const name = options.nameValue ? `mfa_${options.nameValue}` : ".mfa()";
  if (!options.primary.form && !options.primary.rest) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `${name} needs a primary authentication: primaryAuthentication(p => p.formLogin() or p.restLogin())`,
    );
  }
  if (options.factors.length === 0) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `${name} needs at least one secondary factor: .ott() or .passkey()`,
    );
  }
  const types = options.factors.map((f) => f.factorType);
  if (new Set(types).size !== types.length) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `${name} registers the same factor type twice; one type never counts twice`,
    );
  }
  const n = options.requiredFactorsValue;
  if (n !== undefined && (!Number.isInteger(n) || n < 1 || n > options.factors.length)) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `${name}: requiredFactors(${n}) must be between 1 and the ${options.factors.length} configured factor(s); a larger number could never succeed`,
    );
  }
}
