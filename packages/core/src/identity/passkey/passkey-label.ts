import { PlatformError } from "../../kernel/platform-error.js";
import { hasControlCharacter } from "../chain/request-firewall.js";

/** Longest passkey label, in UTF-16 code units after trimming. */
export const MAX_PASSKEY_LABEL_LENGTH = 64;

/**
 * The label a user gave a new passkey: NFC-normalised and trimmed; `fallback` when absent or blank.
 * Throws VALIDATION_FAILED for a non-string, an over-long label or one with control characters.
 */
export function passkeyLabel(value: unknown, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "string") throw invalidLabel("must be a string");
  const label = value.normalize("NFC").trim();
  if (label === "") return fallback;
  if (label.length > MAX_PASSKEY_LABEL_LENGTH) {
    throw invalidLabel(`must be at most ${MAX_PASSKEY_LABEL_LENGTH} characters`);
  }
  if (hasControlCharacter(label)) throw invalidLabel("must not contain control characters");
  return label;
}

function invalidLabel(rule: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", `Passkey label ${rule}`, { details: { field: "label" } });
}
