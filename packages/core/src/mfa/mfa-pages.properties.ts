import { z } from "zod";
import { defineProperty, type PlatformProperties, type PropertyDefinition } from "../kernel/properties.js";

const pagePath = z.union([
  z.literal(""),
  z.string().regex(/^\/(?!\/)[^\s\\]*$/, "must be a local path starting with /"),
]);

/** `platform.auth.mfa.pages.*`: page URLs every flow uses unless its `mfaPage(...)` says otherwise. */
const PAGE_KEYS = {
  selectFactorPage: "select-factor",
  ottRequestPage: "ott-request",
  ottVerifyPage: "ott-verify",
  passkeyChallengePage: "passkey-challenge",
  configurePage: "configure",
  failurePage: "failure",
} as const;

/** One property per MFA page (empty: the built-in default URL of the flow). */
export const MFA_PAGE_PROPERTIES: readonly PropertyDefinition<string>[] = Object.values(PAGE_KEYS).map(
  (name) =>
    defineProperty<string>({
      key: `platform.auth.mfa.pages.${name}`,
      schema: pagePath,
      default: "",
      description: `URL of the MFA ${name} page for every flow without an mfaPage override; empty: the built-in page.`,
    }),
);

/** The configured page URLs, keyed like MfaPageOptions (only the non-empty ones). */
export function mfaPageUrlsFromProperties(properties: PlatformProperties): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [pageKey, name] of Object.entries(PAGE_KEYS)) {
    const definition = MFA_PAGE_PROPERTIES.find((d) => d.key === `platform.auth.mfa.pages.${name}`)!;
    const value = properties.get(definition);
    if (value) out[pageKey] = value;
  }
  return out;
}
