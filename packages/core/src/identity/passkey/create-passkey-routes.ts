import type { SubjectStatusGate } from "../authentication/subject-status-check.js";
import { PAGE_SCRIPT_PATHS } from "../../web/page-scripts.js";
import { DEFAULT_URLS } from "../dsl/default-urls.js";
import type { ChainRoute } from "../chain/chain-route.js";
import type { SecurityContextRepository } from "../context/security-context-repository.js";
import type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
  LoginContext,
} from "../handlers/authentication-handlers.js";
import { PasskeyAssertionOptionsEndpoint } from "./passkey-assertion-options-endpoint.js";
import { PasskeyLoginEndpoint } from "./passkey-login-endpoint.js";
import { PasskeyManagementEndpoints } from "./passkey-management-endpoints.js";
import { PasskeyPage } from "./passkey-page.js";
import type { PasskeyService } from "./passkey-service.js";

/** Default URLs of the passkey endpoints and page. */
export const PASSKEY_DEFAULT_URLS = {
  assertionOptionsEndpoint: DEFAULT_URLS.passkeyAssertionOptions,
  loginProcessingUrl: DEFAULT_URLS.passkeyLoginProcessing,
  registrationOptionsUrl: "/webauthn/register/options",
  registrationUrl: "/webauthn/register",
  credentialsUrl: "/webauthn/credentials",
  pageUrl: "/passkeys",
  scriptUrl: PAGE_SCRIPT_PATHS.passkeysPage,
} as const;

/** What a passkey chain gives its routes. */
export interface PasskeyRoutesOptions {
  service: PasskeyService;
  /** Where a successful sign-in is stored (the session repository on session chains). */
  repository: SecurityContextRepository;
  successHandler: AuthenticationSuccessHandler;
  failureHandler: AuthenticationFailureHandler;
  context: LoginContext;
  /** Asked at the `credential` checkpoint before a passkey is added or removed (the chain's gate). */
  statusCheck?: SubjectStatusGate;
  /** `POST`, assertion options (default `/webauthn/authenticate/options`). */
  assertionOptionsEndpoint?: string;
  /** `POST`, passkey sign-in (default `/login/webauthn`). */
  loginProcessingUrl?: string;
  /** `POST`, creation options for the signed-in user (default `/webauthn/register/options`). */
  registrationOptionsUrl?: string;
  /** `POST` registers, `DELETE <url>/{id}` deletes (default `/webauthn/register`). */
  registrationUrl?: string;
  /** `GET`, the signed-in user's passkeys (default `/webauthn/credentials`). */
  credentialsUrl?: string;
  /** `GET`, the built-in page (default `/passkeys`). */
  pageUrl?: string;
  /**
   * The script the page loads (default `/js/platform-passkeys-page.js`, which the HTTP binding serves
   * from the browser SDK's build); a host that names another URL serves the script there itself.
   */
  scriptUrl?: string;
  /** Serve the built-in page (default true). */
  showPage?: boolean;
}

/**
 * The routes of a passkey chain, in order: assertion options, sign-in processing, management, and
 * (unless `showPage` is false) the built-in page.
 */
export function createPasskeyRoutes(options: PasskeyRoutesOptions): ChainRoute[] {
  const urls = { ...PASSKEY_DEFAULT_URLS, ...definedUrls(options) };
  const routes: ChainRoute[] = [
    ...new PasskeyAssertionOptionsEndpoint(urls.assertionOptionsEndpoint, options.service).routes(),
    ...new PasskeyLoginEndpoint({
      url: urls.loginProcessingUrl,
      service: options.service,
      repository: options.repository,
      successHandler: options.successHandler,
      failureHandler: options.failureHandler,
      context: options.context,
    }).routes(),
    ...new PasskeyManagementEndpoints(urls, options.service, options.statusCheck).routes(),
  ];
  if (options.showPage ?? true) {
    const page = new PasskeyPage(urls.pageUrl, {
      scriptUrl: urls.scriptUrl,
      assertionOptionsUrl: urls.assertionOptionsEndpoint,
      loginProcessingUrl: urls.loginProcessingUrl,
      registrationOptionsUrl: urls.registrationOptionsUrl,
      registrationUrl: urls.registrationUrl,
      credentialsUrl: urls.credentialsUrl,
    });
    routes.push(...page.routes());
  }
  return routes;
}

function definedUrls(
  options: PasskeyRoutesOptions,
): Partial<Record<keyof typeof PASSKEY_DEFAULT_URLS, string>> {
  const out: Partial<Record<keyof typeof PASSKEY_DEFAULT_URLS, string>> = {};
  for (const key of Object.keys(PASSKEY_DEFAULT_URLS) as (keyof typeof PASSKEY_DEFAULT_URLS)[]) {
    const value = options[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
