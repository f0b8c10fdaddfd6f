export { type HiddenInputs, hiddenInputsHtml } from "./hidden-inputs-html.js";
export {
  type MfaConfigureFactor,
  type MfaConfigurePageModel,
  renderMfaConfigurePage,
} from "./mfa-configure-page.js";
export {
  type MfaFailurePageModel,
  type MfaFailureReason,
  mfaFailureReasonFor,
  renderMfaFailurePage,
} from "./mfa-failure-page.js";
export { type MfaLoginPageModel, renderMfaLoginPage, type TokenPersistence } from "./mfa-login-page.js";
export { FACTOR_LABELS } from "./mfa-page-parts.js";
export {
  MFA_CSRF_HEADER,
  MFA_PAGE_SCRIPTS,
  MFA_SDK_SCRIPT,
  type MfaPageShell,
  type PageConfigValue,
  renderMfaPageShell,
} from "./mfa-page-shell.js";
export { type OttChallengePageModel, renderOttChallengePage } from "./ott-challenge-page.js";
export { type OttRequestCodePageModel, renderOttRequestCodePage } from "./ott-request-code-page.js";
export { type PasskeyChallengePageModel, renderPasskeyChallengePage } from "./passkey-challenge-page.js";
export { renderSelectFactorPage, type SelectFactorPageModel } from "./select-factor-page.js";
