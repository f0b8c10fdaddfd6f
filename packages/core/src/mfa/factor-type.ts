import { PlatformError } from "../kernel/platform-error.js";
import type { FactorType as WireFactorType } from "../web/wire/mfa-messages.js";

/** A secondary factor an MFA flow can ask for (the wire's name): `OTT`, `PASSKEY`, or a plugin's. */
export type FactorType = WireFactorType;

/** The factors the spec names, built into the MFA module, in the order pages list them. */
export const FACTOR_TYPES: readonly FactorType[] = ["OTT", "PASSKEY"];

/** The shape of a factor type: upper snake case, at most 32 characters (`OTT`, `TOTP`, `RECOVERY_CODE`). */
export const FACTOR_TYPE_PATTERN = /^[A-Z][A-Z0-9_]{0,31}$/;

/**
 * Reads a factor type from a client: one of `known` (default the built-in ones), also prefixed
 * `MFA_OTT`, case-insensitive. Anything else is a 400 VALIDATION_FAILED.
 */
export function parseFactorType(value: unknown, known: readonly FactorType[] = FACTOR_TYPES): FactorType {
  if (typeof value === "string" && value.length <= 36) {
    const v = value.trim().toUpperCase();
    if (known.includes(v)) return v;
    const unprefixed = v.replace(/^MFA_/, "");
    if (known.includes(unprefixed)) return unprefixed;
  }
  throw new PlatformError("VALIDATION_FAILED", `factorType must be ${oneOf(known)}`, {
    details: { fields: ["factorType"] },
  });
}

/** `OTT or PASSKEY`, `OTT, PASSKEY or TOTP`. */
function oneOf(types: readonly FactorType[]): string {
  return types.length < 2
    ? (types[0] ?? "a factor type")
    : `${types.slice(0, -1).join(", ")} or ${types.at(-1)}`;
}
