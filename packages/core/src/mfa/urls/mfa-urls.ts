import { requirePath } from "../../identity/dsl/method-options.js";
import { PlatformError } from "../../kernel/platform-error.js";

/**
 * Every URL of one MFA flow. The flow's own URLs all carry the flow's `urlPrefix`; `successUrl` and
 * the passkey management URLs belong to the application, not the flow, and never do.
 */
export interface MfaUrls {
  /** The flow's normalized prefix (`/admin`), or undefined without one. */
  urlPrefix: string | undefined;
  /** Which primary login the flow uses. */
  primary: "form" | "rest";
  /** GET: the primary login page (generated, or the user's `loginPage`). */
  formLoginPage: string;
  /** False when `loginPage(url)` names a user page: nothing is generated. */
  generateLoginPage: boolean;
  /** POST: form primary login processing. */
  formLoginProcessing: string;
  /** POST: REST (JSON) primary login processing. */
  restLoginProcessing: string;
  /** The processing URL of this flow's primary (form or REST). */
  primaryLoginProcessing: string;
  /** Where a failed form primary login lands (`<login page>?error`). */
  loginFailure: string;
  /** POST: select a factor (API and no-JS form target). */
  selectFactor: string;
  /** GET: the factor selection page. */
  selectFactorPage: string;
  /** POST: generate and deliver an MFA OTT code (also "resend"). */
  ottGenerateCode: string;
  /** GET: the OTT request-code page. */
  ottRequestCodePage: string;
  /** GET: the OTT challenge (code entry) page. */
  ottChallengePage: string;
  /** POST: verify an MFA OTT code. */
  ottLoginProcessing: string;
  /** GET: the passkey challenge page. */
  passkeyChallengePage: string;
  /** POST: verify an MFA passkey assertion. */
  passkeyLoginProcessing: string;
  /** POST: assertion options bound to the MFA session. */
  passkeyAssertionOptions: string;
  /** POST: cancel the MFA flow. */
  cancel: string;
  /** GET: this URL set as JSON. */
  config: string;
  /** GET: satisfied, missing and allowed factors of the caller's MFA session. */
  status: string;
  /** POST: logout of the flow's chain (`/logout` for form, `/api/logout` for REST primary). */
  logout: string;
  /** GET: the failure page. */
  failurePage: string;
  /** GET: the MFA configuration page. */
  configurePage: string;
  /** Where a completed flow lands. Not part of the flow's URL space. */
  successUrl: string;
  /** POST: passkey registration (the passkey chain's endpoint, not the flow's). */
  passkeyRegistrationProcessing: string;
  /** GET: the passkey management page where a user enrolls a passkey (not the flow's). */
  passkeyManagementPage: string;
}

/** Inputs of {@link mfaUrls}, read from the flow's `.mfa()` options. */
export interface MfaUrlsOptions {
  /** `urlPrefix(...)`: prefixes every URL of the flow. */
  urlPrefix?: string | undefined;
  /** `mfaPage(...)` overrides (`MfaPageOptions.urls`), used as given. */
  pages?: Readonly<Record<string, string>> | undefined;
  /** `formLogin(f => f.defaultLoginUrl(url))`: moves the generated page; processing follows. */
  defaultLoginUrl?: string | undefined;
  /** `loginPage(url)`: a user page, nothing generated. */
  loginPage?: string | undefined;
  /** The primary login kind. */
  primary: "form" | "rest";
  /** An explicit `loginProcessingUrl(...)` of the primary, used as given. */
  primaryProcessingUrl?: string | undefined;
  /** `defaultSuccessUrl(...)`, default `/`. */
  defaultSuccessUrl?: string | undefined;
}

/** The unprefixed default URLs of an MFA flow. */
export const DEFAULT_MFA_URLS = {
  formLogin: "/login",
  restLoginProcessing: "/api/mfa/login",
  selectFactor: "/mfa/select-factor",
  ottGenerateCode: "/mfa/ott/generate-code",
  ottRequestCodePage: "/mfa/ott/request-code-ui",
  ottChallengePage: "/mfa/challenge/ott",
  ottLoginProcessing: "/login/mfa-ott",
  passkeyChallengePage: "/mfa/challenge/passkey",
  passkeyLoginProcessing: "/login/mfa-webauthn",
  passkeyAssertionOptions: "/mfa/webauthn/authenticate/options",
  cancel: "/mfa/cancel",
  config: "/api/mfa/config",
  status: "/api/mfa/status",
  formLogout: "/logout",
  restLogout: "/api/logout",
  failurePage: "/mfa/failure",
  configurePage: "/mfa/configure",
  success: "/",
  passkeyRegistrationProcessing: "/webauthn/register",
  passkeyManagementPage: "/passkeys",
} as const;

/** The `mfaPage(...)` keys (`MfaPageOptions.urls`) and the URL each one overrides. */
const PAGE_KEYS = {
  selectFactorPage: "selectFactorPage",
  ottRequestPage: "ottRequestCodePage",
  ottVerifyPage: "ottChallengePage",
  passkeyChallengePage: "passkeyChallengePage",
  configurePage: "configurePage",
  failurePage: "failurePage",
} as const satisfies Record<string, keyof MfaUrls>;

/**
 * The URL set of one MFA flow. A urlPrefix moves the six core URLs (login, select factor, MFA OTT and
 * passkey processing, cancel, config) and also every other URL the flow serves (primary login, OTT
 * and passkey pages, status, failure and configure pages) so the flow's matcher `<prefix>/**` really
 * covers the whole flow.
 * Explicit URLs (`mfaPage` overrides, `defaultLoginUrl`, `loginPage`, the primary's
 * `loginProcessingUrl`, `defaultSuccessUrl`) are taken as given, never prefixed.
 */
export function mfaUrls(options: MfaUrlsOptions): MfaUrls {
  const prefix = normalizePrefix(options.urlPrefix);
  const p = (path: string): string => `${prefix ?? ""}${path}`;
  const d = DEFAULT_MFA_URLS;
  const defaultLoginUrl =
    options.defaultLoginUrl === undefined
      ? undefined
      : requirePath(options.defaultLoginUrl, "defaultLoginUrl");
  const loginPage = options.loginPage === undefined ? undefined : requirePath(options.loginPage, "loginPage");
  const explicitProcessing =
    options.primaryProcessingUrl === undefined
      ? undefined
      : requirePath(options.primaryProcessingUrl, "loginProcessingUrl");
  const generatedPage = defaultLoginUrl ?? p(d.formLogin);
  const formLoginPage = loginPage ?? generatedPage;
  const formLoginProcessing =
    (options.primary === "form" ? explicitProcessing : undefined) ?? defaultLoginUrl ?? p(d.formLogin);
  const restLoginProcessing =
    (options.primary === "rest" ? explicitProcessing : undefined) ?? p(d.restLoginProcessing);
  const urls: MfaUrls = {
    urlPrefix: prefix,
    primary: options.primary,
    formLoginPage,
    generateLoginPage: loginPage === undefined,
    formLoginProcessing,
    restLoginProcessing,
    primaryLoginProcessing: options.primary === "form" ? formLoginProcessing : restLoginProcessing,
    loginFailure: `${formLoginPage}?error`,
    selectFactor: p(d.selectFactor),
    selectFactorPage: p(d.selectFactor),
    ottGenerateCode: p(d.ottGenerateCode),
    ottRequestCodePage: p(d.ottRequestCodePage),
    ottChallengePage: p(d.ottChallengePage),
    ottLoginProcessing: p(d.ottLoginProcessing),
    passkeyChallengePage: p(d.passkeyChallengePage),
    passkeyLoginProcessing: p(d.passkeyLoginProcessing),
    passkeyAssertionOptions: p(d.passkeyAssertionOptions),
    cancel: p(d.cancel),
    config: p(d.config),
    status: p(d.status),
    logout: p(options.primary === "form" ? d.formLogout : d.restLogout),
    failurePage: p(d.failurePage),
    configurePage: p(d.configurePage),
    successUrl:
      options.defaultSuccessUrl === undefined
        ? d.success
        : requirePath(options.defaultSuccessUrl, "defaultSuccessUrl"),
    passkeyRegistrationProcessing: d.passkeyRegistrationProcessing,
    passkeyManagementPage: d.passkeyManagementPage,
  };
  for (const [key, url] of Object.entries(options.pages ?? {})) {
    if (!isPageKey(key)) {
      throw new PlatformError("CONFIGURATION_INVALID", `Unknown mfaPage URL ${JSON.stringify(key)}`);
    }
    urls[PAGE_KEYS[key]] = requirePath(url, key);
  }
  return urls;
}

/**
 * Every path the flow serves, deduplicated and without query strings: the security matcher of a flow
 * without urlPrefix, or the explicit URLs a prefixed flow must add to `<prefix>/**`. Leaves out
 * `successUrl` and the passkey management URLs, which other chains serve.
 */
export function mfaUrlList(urls: MfaUrls): string[] {
  const paths = [
    urls.formLoginPage,
    urls.primary === "form" ? urls.formLoginProcessing : urls.restLoginProcessing,
    urls.loginFailure,
    urls.selectFactor,
    urls.selectFactorPage,
    urls.ottGenerateCode,
    urls.ottRequestCodePage,
    urls.ottChallengePage,
    urls.ottLoginProcessing,
    urls.passkeyChallengePage,
    urls.passkeyLoginProcessing,
    urls.passkeyAssertionOptions,
    urls.cancel,
    urls.config,
    urls.status,
    urls.logout,
    urls.failurePage,
    urls.configurePage,
  ];
  const out = new Set<string>();
  for (const path of paths) out.add(path.replace(/[?#].*$/, ""));
  return [...out];
}

function isPageKey(key: string): key is keyof typeof PAGE_KEYS {
  return Object.hasOwn(PAGE_KEYS, key);
}

function normalizePrefix(prefix: string | undefined): string | undefined {
  if (prefix === undefined) return undefined;
  const trimmed = requirePath(prefix, "urlPrefix").replace(/\/+$/, "");
  return trimmed === "" ? undefined : trimmed;
}
