/**
 * Every default URL of the identity module, in one place (the "URL provider" of docs/glossary.md). A
 * DSL option overrides one URL for one chain; nothing else hard-codes these paths.
 */
export const DEFAULT_URLS = {
  /** Form login page (GET) and processing (POST). */
  formLoginPage: "/login",
  formLoginProcessing: "/login",
  /** REST (JSON) login processing. */
  restLoginProcessing: "/api/login",
  /** One-time token: generation, built-in submit page, processing. */
  ottGenerate: "/ott/generate",
  ottSubmitPage: "/login/ott",
  ottLoginProcessing: "/login/ott",
  /** Passkey: processing and assertion options. */
  passkeyLoginProcessing: "/login/webauthn",
  passkeyAssertionOptions: "/webauthn/authenticate/options",
  /** Logout (POST) for session chains and REST chains. */
  logout: "/logout",
  restLogout: "/api/logout",
  /** Token endpoints of `.oauth2()` chains. */
  tokenRefresh: "/api/token/refresh",
  tokenRevoke: "/api/token/revoke",
  /** Who am I. */
  me: "/api/me",
  /** Where a session login lands when nothing else is known. */
  defaultSuccess: "/",
} as const;

/** The URL keys of DEFAULT_URLS. */
export type DefaultUrlKey = keyof typeof DEFAULT_URLS;
