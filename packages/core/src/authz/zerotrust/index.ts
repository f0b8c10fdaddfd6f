export {
  ADAPTIVE_MFA_SOURCE,
  AdaptiveMfaZeroTrustListener,
  zeroTrustActionOfBand,
} from "./adaptive-mfa-zero-trust-listener.js";
export {
  InMemoryZeroTrustActionStore,
  type InMemoryZeroTrustActionStoreOptions,
} from "./in-memory-zero-trust-action-store.js";
export { toZeroTrustAction, ZERO_TRUST_ACTIONS, type ZeroTrustAction } from "./zero-trust-action.js";
export { ZERO_TRUST_CACHE_MAX_ENTRIES, ZeroTrustActionResolver } from "./zero-trust-action-resolver.js";
export {
  ZERO_TRUST_REASON_MAX_LENGTH,
  type ZeroTrustClearOptions,
  ZeroTrustActionService,
  type ZeroTrustSetOptions,
  type ZeroTrustUserLookup,
} from "./zero-trust-action-service.js";
export {
  ZERO_TRUST_LIST_DEFAULT_LIMIT,
  ZERO_TRUST_LIST_MAX_LIMIT,
  type ZeroTrustActionListOptions,
  type ZeroTrustActionRecord,
  type ZeroTrustActionRecordInput,
  type ZeroTrustActionSource,
  ZeroTrustActionStore,
} from "./zero-trust-action-store.js";
export {
  ZERO_TRUST_ADMIN_AUTHORITY,
  ZeroTrustAdminFilter,
  type ZeroTrustAdminFilterOptions,
} from "./zero-trust-admin-filter.js";
export { ZERO_TRUST_AUDIT } from "./zero-trust-audit.js";
export { checkZeroTrustListOptions, checkZeroTrustPut } from "./zero-trust-record-validation.js";
export {
  ZeroTrustRandom,
  type ZeroTrustResolution,
  type ZeroTrustResolutionReason,
  type ZeroTrustResolveInput,
} from "./zero-trust-resolution.js";
export {
  steppedUpSince,
  type ZeroTrustDenial,
  type ZeroTrustDenialCode,
  zeroTrustDenial,
} from "./zero-trust-response.js";
export {
  parseZeroTrustSubject,
  requireZeroTrustSubject,
  ZERO_TRUST_SUBJECT_ID_MAX_LENGTH,
  type ZeroTrustSubject,
  type ZeroTrustSubjectKind,
  usernameOfZeroTrustSubject,
  ZERO_TRUST_USERNAME_PREFIX,
  zeroTrustSessionSubject,
  zeroTrustUserSubject,
} from "./zero-trust-subject.js";
export {
  ZeroTrustSubjectStatusCheck,
  type ZeroTrustSubjectStatusCheckOptions,
} from "./zero-trust-subject-status-check.js";
export { ZERO_TRUST_DEFAULT_TTL_MS, zeroTrustMaxTtlMs, zeroTrustTtlOf } from "./zero-trust-ttl.js";
export {
  ZERO_TRUST_PROPERTIES,
  ZEROTRUST_CACHE_INVALIDATED_TTL_MINUTES,
  ZEROTRUST_CACHE_SESSION_TTL_MINUTES,
  ZEROTRUST_CACHE_TTL_HOURS,
  ZEROTRUST_ENABLED,
  ZEROTRUST_HOTPATH_ENABLED,
  ZEROTRUST_MODE,
  ZEROTRUST_PENDING_ANALYSIS,
  ZEROTRUST_SAMPLING_RATE,
  ZEROTRUST_SESSION_TRACKING_ENABLED,
  ZEROTRUST_STORE_TIMEOUT,
  ZEROTRUST_STORE_UPDATE_INTERVAL_SECONDS,
  ZEROTRUST_THREAT_INITIAL,
  type ZeroTrustMode,
  type ZeroTrustPendingPolicy,
  type ZeroTrustSettings,
  zeroTrustSettingsFromProperties,
} from "./zero-trust.properties.js";
