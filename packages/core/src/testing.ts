// @keyward/core/testing: the contract suite of every stateful port, for adapters and hosts, and the
// doubles their tests need (ManualClock, codeOf). It imports vitest.
export { ManualClock } from "./kernel/clock.js";
export { codeOf } from "./kernel/error-code.test-support.js";
export { describeOneTimeTokenServiceContract } from "./identity/ott/one-time-token-service.contract.js";
export { describeOttGenerationLimiterContract } from "./identity/ott/ott-generation-limiter.contract.js";
export { describePasskeyCredentialRepositoryContract } from "./identity/passkey/passkey-credential-repository.contract.js";
export { describeWebAuthnChallengeStoreContract } from "./identity/passkey/webauthn-challenge-store.contract.js";
export { describeSessionStoreContract } from "./identity/session/session-store.contract.js";
export { describeLoginThrottleContract } from "./identity/throttle/login-throttle.contract.js";
export { describeRefreshTokenStoreContract } from "./identity/tokens/refresh-token-store.contract.js";
export { describeRevokedAccessTokenStoreContract } from "./identity/tokens/revoked-token-store.contract.js";
export { describeFactorContextRepositoryContract } from "./mfa/state/factor-context-repository.contract.js";
export { describeEscalationStoreContract } from "./mfa/escalation/escalation-store.contract.js";
export { describeMfaLockoutsContract } from "./mfa/flow/mfa-lockouts.contract.js";
export { describeSignInHistoryStoreContract } from "./mfa/adaptive/sign-in-history-store.contract.js";
export { describePolicyRepositoryContract } from "./authz/policy/policy-repository.contract.js";
export { describePolicyRevisionRepositoryContract } from "./authz/policy/policy-revision-repository.contract.js";
export { describeManagedResourceRepositoryContract } from "./resources/managed-resource-repository.contract.js";
export { describeZeroTrustActionStoreContract } from "./authz/zerotrust/zero-trust-action-store.contract.js";
export { describeUserRepositoryContract } from "./identity/users/user-repository.contract.js";
export { describeAuditLogContract } from "./kernel/audit-log.contract.js";
export { describeKeyStoreContract } from "./kernel/keys/key-store.contract.js";
export { describeChangeCountersContract } from "./kernel/coordination/change-counters.contract.js";
export { describeDistributedLockContract } from "./kernel/coordination/distributed-lock.contract.js";
export { describeDecisionHistoryStoreContract } from "./decisions/history/decision-history-store.contract.js";
export { describeReleaseRegistryContract } from "./governance/registry/release-registry.contract.js";
export { describeReleaseEvidenceLedgerContract } from "./governance/evidence/release-evidence-ledger.contract.js";
