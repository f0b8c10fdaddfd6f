/** The URL prefix under which the HTTP binding serves the browser SDK's build (`/js/<file>`). */
export const PAGE_SCRIPTS_PREFIX = "/js";

/**
 * The scripts the core's pages load, by URL: the SDK (`window.PlatformMFA`) and one script per page.
 * The pages name these paths and the HTTP binding (`createHttpApp`) serves them from the browser
 * SDK's build, so a host's pages work without serving anything itself.
 */
export const PAGE_SCRIPT_PATHS = {
  /** The SDK's IIFE; every MFA page loads it first. */
  sdk: `${PAGE_SCRIPTS_PREFIX}/platform-mfa-sdk.js`,
  /** The MFA login page. */
  loginPage: `${PAGE_SCRIPTS_PREFIX}/platform-login-page.js`,
  /** The OTT "request a code" page. */
  ottRequestPage: `${PAGE_SCRIPTS_PREFIX}/platform-ott-request-page.js`,
  /** The OTT challenge page. */
  ottVerifyPage: `${PAGE_SCRIPTS_PREFIX}/platform-ott-verify-page.js`,
  /** The MFA passkey challenge page. */
  passkeyChallengePage: `${PAGE_SCRIPTS_PREFIX}/platform-passkey-page.js`,
  /** The passkey sign-in and management page (`/passkeys`); stands alone, without the SDK. */
  passkeysPage: `${PAGE_SCRIPTS_PREFIX}/platform-passkeys-page.js`,
  /** The Policy Center's create tab (quick grant by JSON, preview in place); stands alone. */
  policyCenterPage: `${PAGE_SCRIPTS_PREFIX}/platform-policy-center-page.js`,
  /** The prompt releases console page (transition, rollback, approval forms); stands alone. */
  releasesPage: `${PAGE_SCRIPTS_PREFIX}/platform-releases-page.js`,
} as const;
