import { Clock, FactorContextRepository, MfaLockouts, ZeroTrustActionStore } from "@platform/core/ports";
import { MongoFactorContextRepository } from "./mongo-factor-context-repository.js";
import { MongoMfaLockouts } from "./mongo-mfa-lockouts.js";
import { type MongoStoreRegistration, mongoStore } from "./mongo-store-registration.js";
import { MongoZeroTrustActionStore } from "./mongo-zero-trust-action-store.js";

/** The MFA and authorization modules' stores on MongoDB: lockouts, factor contexts, escalations,
 * sign-in history, policies, zero-trust actions. */
export const mfaAuthzStores: readonly MongoStoreRegistration[] = [
  mongoStore(MfaLockouts, (db, c) => new MongoMfaLockouts({ db, clock: c.resolve(Clock) })),
  mongoStore(
    FactorContextRepository,
    (db, c) => new MongoFactorContextRepository({ db, clock: c.resolve(Clock) }),
  ),
  mongoStore(ZeroTrustActionStore, (db, c) => new MongoZeroTrustActionStore({ db, clock: c.resolve(Clock) })),
];
