export { constantTimeEquals } from "./constant-time-equals.js";
export { CSRF_SAFE_METHODS, CsrfFilter, type CsrfFilterOptions } from "./csrf-filter.js";
export { csrfHiddenInput, csrfMetaTags } from "./csrf-html.js";
export { csrfToken, setCsrfToken, type CsrfToken } from "./csrf-token.js";
export { CsrfTokenRepository } from "./csrf-token-repository.js";
export {
  DEFAULT_CSRF_SESSION_KEY,
  SessionCsrfTokenRepository,
  type SessionCsrfTokenRepositoryOptions,
} from "./session-csrf-token-repository.js";
