// Which factor the step-up overlay shows and how it asks for the answer: by the factor's kind (a code
// or a passkey), so a plugin factor (`TOTP`, `RECOVERY_CODE`) needs no change here.
import type { FactorEndpoint } from "../factor-endpoints.js";
import type { FactorType } from "../types.js";

/**
 * How the overlay answers a factor: the spec's e-mailed code (`OTT`: `verifyOtt`, with "Send a new
 * code"), the spec's passkey (`PASSKEY`: the ceremony), or a plugin factor's typed code (`verifyFactor`
 * at its own URL).
 */
export type OverlayAnswer = "mailed-code" | "passkey" | "code";

/**
 * How the overlay answers `type`, or undefined when it cannot: the two built-in factors have their own
 * endpoints; a plugin factor is answered by its `kind` from `endpoints.factors`, and only a `code`
 * one (a plugin passkey factor has no assertion-options URL on the wire, so it is not offered).
 */
export function overlayAnswerOf(
  type: FactorType | undefined,
  endpoint: FactorEndpoint | undefined,
): OverlayAnswer | undefined {
  if (type === "OTT") return "mailed-code";
  if (type === "PASSKEY") return "passkey";
  return endpoint?.kind === "code" ? "code" : undefined;
}

/**
 * The factor a flow state waits for: the e-mailed code, the passkey, a plugin factor's challenge
 * (`FACTOR_CHALLENGE` of `currentFactor`), or none chosen yet (the user picks).
 */
export function factorOf(state: unknown, currentFactor?: unknown): FactorType | undefined {
  if (state === "OTT_CHALLENGE" || state === "AWAITING_CHALLENGE_INITIATION") return "OTT";
  if (state === "PASSKEY_CHALLENGE") return "PASSKEY";
  if (state === "FACTOR_CHALLENGE" && typeof currentFactor === "string" && currentFactor !== "") {
    return currentFactor;
  }
  return undefined;
}

/** What the overlay says for a plugin code factor: its choice button, its field's label, its keyboard. */
export interface CodeFactorText {
  readonly use: string;
  readonly label: string;
  readonly inputMode: "numeric" | "text";
}

/** The texts of the plugin code factors the platform ships; others get {@link codeFactorText}'s generic one. */
const KNOWN: ReadonlyMap<FactorType, CodeFactorText> = new Map([
  [
    "TOTP",
    {
      use: "Use your authenticator app",
      label: "Enter the code from your authenticator app",
      inputMode: "numeric",
    },
  ],
  [
    "RECOVERY_CODE",
    { use: "Use a recovery code", label: "Enter one of your recovery codes", inputMode: "text" },
  ],
]);

/** The overlay's texts for a plugin code factor (a generic wording from the type for one it does not know). */
export function codeFactorText(type: FactorType): CodeFactorText {
  const known = KNOWN.get(type);
  if (known) return known;
  const name = type.toLowerCase().replace(/_/g, " ");
  return { use: `Use your ${name}`, label: `Enter your ${name} code`, inputMode: "text" };
}
