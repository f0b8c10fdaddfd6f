export { type MfaConfigJson, type MfaFlowDescription, mfaConfigJson } from "./mfa-config-json.js";
export { DEFAULT_MFA_URLS, type MfaUrls, type MfaUrlsOptions, mfaUrlList, mfaUrls } from "./mfa-urls.js";
