// @platform/core/testing: contract suites and test doubles for adapters and hosts (imports vitest).
export { ManualClock } from "./kernel/clock.js";
export { codeOf } from "./kernel/error-code.test-support.js";
export { CountingPasswordHasher } from "./identity/password/counting-password-hasher.js";
export { describeOneTimeTokenServiceContract } from "./identity/ott/one-time-token-service.contract.js";
export { describePasskeyCredentialRepositoryContract } from "./identity/passkey/passkey-credential-repository.contract.js";
export { describeWebAuthnChallengeStoreContract } from "./identity/passkey/webauthn-challenge-store.contract.js";
export { describeSessionStoreContract } from "./identity/session/session-store.contract.js";
export { describeLoginThrottleContract } from "./identity/throttle/login-throttle.contract.js";
export { describeRefreshTokenStoreContract } from "./identity/tokens/refresh-token-store.contract.js";
export { describeRevokedAccessTokenStoreContract } from "./identity/tokens/revoked-token-store.contract.js";
export { describeFactorContextRepositoryContract } from "./mfa/state/factor-context-repository.contract.js";
export { describeEscalationStoreContract } from "./mfa/escalation/escalation-store.contract.js";
export { describePolicyRepositoryContract } from "./authz/policy/policy-repository.contract.js";
export { describeZeroTrustActionStoreContract } from "./authz/zerotrust/zero-trust-action-store.contract.js";
export { describeUserRepositoryContract } from "./identity/users/user-repository.contract.js";
