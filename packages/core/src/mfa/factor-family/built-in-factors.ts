import type { PasskeyCredentialRepository } from "../../identity/passkey/passkey-credential-repository.js";
import type { Factor, FactorDescription } from "./factor.js";

/** The one-time code e-mailed (or otherwise delivered) to the account: always usable. */
export const OTT_FACTOR: FactorDescription = Object.freeze({
  type: "OTT",
  kind: "code",
  label: "One-time code",
  challengeState: "OTT_CHALLENGE",
  proves: "otp",
  lockoutWeight: 1,
});

/** A passkey of the account: usable once the user registered one. */
export const PASSKEY_FACTOR: FactorDescription = Object.freeze({
  type: "PASSKEY",
  kind: "passkey",
  label: "Passkey",
  challengeState: "PASSKEY_CHALLENGE",
  proves: "hwk",
  lockoutWeight: 1,
});

/** The descriptions of the built-in factors, in the order pages list them. */
export const BUILT_IN_FACTORS: readonly FactorDescription[] = Object.freeze([OTT_FACTOR, PASSKEY_FACTOR]);

/** The OTT member: delivered to the account itself, so every user has it. */
export function ottFactor(): Factor {
  return { ...OTT_FACTOR, enrolled: async () => true };
}

/** The PASSKEY member: enrolled when the user has at least one registered credential. */
export function passkeyFactor(passkeys: PasskeyCredentialRepository): Factor {
  return {
    ...PASSKEY_FACTOR,
    enrolled: async (userId) => (await passkeys.listByUser(userId)).length > 0,
  };
}
