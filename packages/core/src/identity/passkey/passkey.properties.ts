import { defineProperty, type PlatformProperties, prop } from "../../kernel/properties.js";
import { DEFAULT_PASSKEY_CHALLENGE_TTL_MS, type PasskeyServiceOptions } from "./passkey-service.js";

/** How long an issued WebAuthn challenge (registration or assertion options) stays usable. */
export const PASSKEY_CHALLENGE_TTL = defineProperty({
  key: "platform.auth.passkey.challenge-ttl",
  schema: prop
    .duration()
    .refine((ms) => ms >= 10_000 && ms <= 3_600_000, "must be between 10 seconds and 1 hour"),
  default: DEFAULT_PASSKEY_CHALLENGE_TTL_MS,
  description:
    "How long passkey registration and sign-in options stay usable (single use, bound to the browser's " +
    "PLATFORM_WEBAUTHN cookie); also the browser's ceremony timeout. e.g. PT5M.",
});

/** Every passkey property, for a plugin's `properties` list. */
export const PASSKEY_PROPERTIES = [PASSKEY_CHALLENGE_TTL] as const;

/** The PasskeyService options these properties select. */
export function passkeyOptionsFromProperties(
  properties: PlatformProperties,
): Pick<PasskeyServiceOptions, "challengeTtlMs"> {
  return { challengeTtlMs: properties.get(PASSKEY_CHALLENGE_TTL) };
}
