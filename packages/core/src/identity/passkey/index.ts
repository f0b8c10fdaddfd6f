export {
  createPasskeyFilters,
  PASSKEY_DEFAULT_URLS,
  type PasskeyFiltersOptions,
} from "./create-passkey-filters.js";
export {
  InMemoryPasskeyCredentialRepository,
  type InMemoryPasskeyCredentialRepositoryOptions,
} from "./in-memory-passkey-credential-repository.js";
export {
  DEFAULT_MAX_WEBAUTHN_CHALLENGES,
  InMemoryWebAuthnChallengeStore,
  type InMemoryWebAuthnChallengeStoreOptions,
} from "./in-memory-webauthn-challenge-store.js";
export { PasskeyAssertionOptionsFilter } from "./passkey-assertion-options-filter.js";
export type { CredentialDescriptor } from "./passkey-ceremony.js";
export type { NewPasskeyCredential, PasskeyCredential, PasskeyDeviceType } from "./passkey-credential.js";
export { PasskeyCredentialRepository } from "./passkey-credential-repository.js";
export { PASSKEY_ERROR_STATUS, type PasskeyErrorCode, passkeyError } from "./passkey-errors.js";
export { MAX_PASSKEY_LABEL_LENGTH, passkeyLabel } from "./passkey-label.js";
export { PasskeyLoginFilter, type PasskeyLoginFilterOptions } from "./passkey-login-filter.js";
export {
  PasskeyManagementFilter,
  type PasskeyManagementUrls,
  type PasskeySummary,
  passkeySummary,
} from "./passkey-management-filter.js";
export {
  PasskeyPageFilter,
  type PasskeyPageModel,
  type PasskeyPageUrls,
  renderPasskeyPage,
} from "./passkey-page.js";
export { PASSKEY_PAGE_SCRIPT } from "./passkey-page-script.js";
export { PasskeyScriptFilter } from "./passkey-script-filter.js";
export {
  DEFAULT_PASSKEY_CHALLENGE_TTL_MS,
  DEFAULT_PASSKEY_RP_ID,
  DEFAULT_PASSKEY_RP_NAME,
  type IssuedWebAuthnOptions,
  PASSKEY_COUNTER_REGRESSION_EVENT,
  PASSKEY_DELETED_EVENT,
  PASSKEY_REGISTERED_EVENT,
  type PasskeyRequestContext,
  PasskeyService,
  type PasskeyServiceOptions,
  type PasskeyUser,
} from "./passkey-service.js";
export {
  PASSKEY_CHALLENGE_TTL,
  PASSKEY_PROPERTIES,
  passkeyOptionsFromProperties,
} from "./passkey.properties.js";
export {
  setChallengeCookie,
  takeChallengeCookie,
  WEBAUTHN_CHALLENGE_COOKIE,
} from "./webauthn-challenge-cookie.js";
export {
  WebAuthnChallengeStore,
  type WebAuthnChallenge,
  type WebAuthnChallengePurpose,
} from "./webauthn-challenge-store.js";
export {
  isBase64Url,
  MAX_CREDENTIAL_ID_LENGTH,
  MAX_WEBAUTHN_FIELD_LENGTH,
  parseAuthenticationResponseJson,
  parseRegistrationResponseJson,
} from "./webauthn-response-json.js";
