import type { MfaConfigOverrides, TokenPersistence } from "./types.js";

/** The id of the page-contract element whose data attributes configure the SDK. */
export const PAGE_CONFIG_ID = "platform-page-config";

/** What a page says about itself in `div#platform-page-config`. */
export interface PageConfig {
  /** URLs the page names, as overrides of the flow's URL set; undefined when it names none. */
  config: MfaConfigOverrides | undefined;
  /** `data-config-url`: where the page says `GET /api/mfa/config` is (a prefixed flow). */
  configUrl: string | undefined;
  /** `data-mfa-session-id`. */
  mfaSessionId: string | undefined;
  /** `data-token-persistence`, when a valid mode. */
  tokenPersistence: TokenPersistence | undefined;
  /** Every data attribute, by its dataset name (`mfaSessionId`, `attemptsMade`, ...). */
  data: Record<string, string>;
}

const PERSISTENCE = new Set(["memory", "localStorage", "sessionStorage"]);

/**
 * Reads `#platform-page-config`: `data-mfa-config` (a JSON URL set) and the contract's URL
 * attributes (`data-primary-login-processing`, `data-select-factor-url`, `data-ott-request-url`,
 * `data-failure-url`, `data-assertion-options-url`, `data-login-processing-url`,
 * `data-passkey-options-url`, `data-passkey-login-url`), the MFA session id
 * and the token persistence. Undefined when the page has no such element.
 */
export function readPageConfig(doc: Document | undefined = globalThis.document): PageConfig | undefined {
  const el = doc?.getElementById(PAGE_CONFIG_ID);
  if (!el) return undefined;
  const data: Record<string, string> = {};
  for (const [name, value] of Object.entries(el.dataset)) if (value !== undefined) data[name] = value;

  const config: Record<string, Record<string, string>> = {};
  const put = (group: string, key: string, value: string | undefined): void => {
    if (!value) return;
    config[group] ??= {};
    (config[group] as Record<string, string>)[key] = value;
  };
  if (data.mfaConfig) {
    try {
      const parsed = JSON.parse(data.mfaConfig) as unknown;
      if (typeof parsed === "object" && parsed !== null) Object.assign(config, parsed);
    } catch {
      // A malformed attribute is ignored: the other attributes or the server's config still apply.
    }
  }
  const rest = data.mfaSdkRequired === "true";
  put("primary", rest ? "restLoginProcessing" : "formLoginProcessing", data.primaryLoginProcessing);
  put("mfa", "selectFactor", data.selectFactorUrl);
  put("api", "selectFactor", data.selectFactorUrl);
  put("ott", "codeGeneration", data.ottRequestUrl);
  put("api", "requestOttCode", data.ottRequestUrl);
  put("mfa", "failure", data.failureUrl);
  put("webauthn", "assertionOptions", data.assertionOptionsUrl);
  put("webauthn", "assertionVerify", data.loginProcessingUrl);
  put("passkey", "loginProcessing", data.loginProcessingUrl);
  put("passkeyLogin", "assertionOptions", data.passkeyOptionsUrl);
  put("passkeyLogin", "loginProcessing", data.passkeyLoginUrl);

  const persistence = data.tokenPersistence;
  return {
    config: Object.keys(config).length > 0 ? (config as MfaConfigOverrides) : undefined,
    configUrl: data.configUrl || undefined,
    mfaSessionId: data.mfaSessionId || undefined,
    tokenPersistence:
      persistence !== undefined && PERSISTENCE.has(persistence)
        ? (persistence as TokenPersistence)
        : undefined,
    data,
  };
}
