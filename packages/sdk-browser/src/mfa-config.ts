import type { MfaConfig } from "./types.js";

/**
 * The URL set of a flow with the server's defaults (no urlPrefix, form primary): what an injected or
 * page configuration is merged over. Mirrors the core's DEFAULT_MFA_URLS, plus the passkey chain's
 * sign-in URLs (`passkeyLogin`, the core's DEFAULT_URLS), which `GET /api/mfa/config` does not carry.
 */
export const DEFAULT_MFA_CONFIG: Readonly<MfaConfig> = Object.freeze({
  primary: {
    formLoginPage: "/login",
    formLoginProcessing: "/login",
    restLoginProcessing: "/api/mfa/login",
    loginFailure: "/login?error",
    loginSuccess: "/",
  },
  mfa: { selectFactor: "/mfa/select-factor", success: "/", failure: "/mfa/failure", cancel: "/mfa/cancel" },
  ott: {
    requestCodeUi: "/mfa/ott/request-code-ui",
    challengeUi: "/mfa/challenge/ott",
    loginProcessing: "/login/mfa-ott",
    codeGeneration: "/mfa/ott/generate-code",
  },
  passkey: {
    challengeUi: "/mfa/challenge/passkey",
    loginProcessing: "/login/mfa-webauthn",
    registrationProcessing: "/webauthn/register",
  },
  webauthn: {
    assertionOptions: "/mfa/webauthn/authenticate/options",
    assertionVerify: "/login/mfa-webauthn",
  },
  passkeyLogin: { assertionOptions: "/webauthn/authenticate/options", loginProcessing: "/login/webauthn" },
  api: {
    selectFactor: "/mfa/select-factor",
    cancel: "/mfa/cancel",
    status: "/api/mfa/status",
    requestOttCode: "/mfa/ott/generate-code",
    config: "/api/mfa/config",
    logout: "/logout",
  },
});

const GROUPS = ["primary", "mfa", "ott", "passkey", "webauthn", "passkeyLogin", "api"] as const;

/**
 * `base` with `overrides` applied group by group; only string values of known groups are taken, so
 * a malformed configuration cannot plant other types (or `__proto__`) in the URL set.
 */
export function mergeMfaConfig(base: Readonly<MfaConfig>, overrides: unknown): MfaConfig {
  const merged = {} as Record<string, unknown>;
  const source = isRecord(overrides) ? overrides : {};
  for (const group of GROUPS) {
    const into: Record<string, string> = { ...(base[group] as unknown as Record<string, string>) };
    const from = source[group];
    if (isRecord(from)) {
      for (const key of Object.keys(into)) {
        const value = from[key];
        if (typeof value === "string" && value.length > 0) into[key] = value;
      }
    }
    merged[group] = into;
  }
  const config = merged as unknown as MfaConfig;
  const prefix = typeof source.urlPrefix === "string" ? source.urlPrefix : base.urlPrefix;
  if (prefix !== undefined) config.urlPrefix = prefix;
  const flow = isRecord(source.flow) ? source.flow : base.flow;
  if (flow !== undefined) config.flow = flow as MfaConfig["flow"];
  return config;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
