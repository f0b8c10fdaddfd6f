import { PlatformError } from "../kernel/platform-error.js";
import type { FactorType as WireFactorType } from "../web/wire/mfa-messages.js";

/** The secondary factors an MFA flow can ask for (the wire's names). */
export type FactorType = WireFactorType;

/** Every factor type, in the order pages list them. */
export const FACTOR_TYPES: readonly FactorType[] = ["OTT", "PASSKEY"];

/**
 * Reads a factor type from a client: `OTT`/`PASSKEY`, also the prefixed `MFA_OTT`/`MFA_PASSKEY`,
 * case-insensitive. Anything else is a 400 VALIDATION_FAILED.
 */
export function parseFactorType(value: unknown): FactorType {
  if (typeof value === "string" && value.length <= 32) {
    const v = value.trim().toUpperCase().replace(/^MFA_/, "");
    if (v === "OTT" || v === "PASSKEY") return v;
  }
  throw new PlatformError("VALIDATION_FAILED", "factorType must be OTT or PASSKEY", {
    details: { fields: ["factorType"] },
  });
}
