// @keyward/core/adapter-kit: what an adapter of the ports (adapters-mongo, or a host's own store)
// shares with the in-memory defaults, so that every store keys, hashes, limits and refuses the same
// way: storage keys, token hashes, list limits and defaults, the checks a store makes before it writes
// or reads, and the kernel's real Clock and IdGenerator for an adapter built outside a platform. The
// ports themselves are in /ports, the contract suites in /testing.

// kernel
export { auditQueryLimit, matchesAuditQuery } from "./kernel/audit-log.js";
export { SystemClock } from "./kernel/clock.js";
export { CryptoIdGenerator } from "./kernel/id-generator.js";
export { checkTopic } from "./kernel/coordination/in-memory-change-counters.js";
export { checkLease } from "./kernel/coordination/in-memory-distributed-lock.js";

// identity
export { USER_LIST_DEFAULT_LIMIT, USER_LIST_MAX_LIMIT } from "./identity/users/user-repository.js";
export { usernameKey, usernameSkeleton } from "./identity/users/username-key.js";
export { checkNewUsername } from "./identity/users/check-new-username.js";
export { checkEmailAddress } from "./identity/users/email-address.js";
export { userAccountFrom } from "./identity/users/user-account-from.js";
export { LOGIN_THROTTLE_DEFAULTS } from "./identity/throttle/login-throttle.js";
export { throttleAccountKey, throttleAddressKey, throttleKeys } from "./identity/throttle/throttle-keys.js";
export { hashOneTimeTokenValue, oneTimeToken } from "./identity/ott/one-time-token-service.js";
export { OTT_GENERATION_LIMITS_DEFAULTS } from "./identity/ott/ott-generation-limiter.js";
export { hashRefreshToken } from "./identity/tokens/refresh-token-store.js";

// mfa
export { DEFAULT_FACTOR_CONTEXT_RETENTION_MS } from "./mfa/state/factor-context-repository.js";
export { mfaSettingsFromProperties } from "./mfa/mfa.properties.js";
export { SIGN_IN_HISTORY_LIMITS } from "./mfa/adaptive/sign-in-history-store.js";
export { networkOf } from "./mfa/adaptive/sign-in-history.js";
export { parseDeviceId } from "./mfa/decision/mfa-policy-context.js";

// authz
export {
  checkZeroTrustListOptions,
  checkZeroTrustPut,
} from "./authz/zerotrust/zero-trust-record-validation.js";

// decisions
export {
  checkDecisionHistoryLimit,
  checkDecisionHistoryRecord,
} from "./decisions/history/decision-history-validation.js";

// governance
export { checkReleaseHead } from "./governance/registry/release-head-check.js";
export { checkInstanceHeartbeat } from "./governance/convergence/instance-heartbeat-check.js";
