// @platform/core/testing: contract suites and test doubles for adapters and hosts (imports vitest).
export { ManualClock } from "./kernel/clock.js";
export { CountingPasswordHasher } from "./identity/password/counting-password-hasher.js";
export { describeUserRepositoryContract } from "./identity/users/user-repository.contract.js";
