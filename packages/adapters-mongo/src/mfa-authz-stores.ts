import { PlatformProperties } from "@keyward/core";
import { mfaSettingsFromProperties } from "@keyward/core/adapter-kit";
import {
  Clock,
  EscalationStore,
  FactorContextRepository,
  IdGenerator,
  ManagedResourceRepository,
  MfaLockouts,
  PolicyRepository,
  PolicyRevisionRepository,
  SignInHistoryStore,
  TotpEnrolmentStore,
  ZeroTrustActionStore,
} from "@keyward/core/ports";
import type { DependencyContainer } from "tsyringe";
import { MongoEscalationStore } from "./mongo-escalation-store.js";
import { MongoFactorContextRepository } from "./mongo-factor-context-repository.js";
import { MongoManagedResourceRepository } from "./mongo-managed-resource-repository.js";
import { MongoMfaLockouts } from "./mongo-mfa-lockouts.js";
import { MongoPolicyRepository } from "./mongo-policy-repository.js";
import { MongoPolicyRevisionRepository } from "./mongo-policy-revision-repository.js";
import { MongoSignInHistoryStore } from "./mongo-sign-in-history-store.js";
import { MongoTotpEnrolmentStore } from "./mongo-totp-enrolment-store.js";
import { type MongoStoreRegistration, mongoStore } from "./mongo-store-registration.js";
import { MongoZeroTrustActionStore } from "./mongo-zero-trust-action-store.js";

/** The MFA and authorization modules' stores on MongoDB: lockouts, factor contexts, authenticator apps, escalations,
 * sign-in history, policies and their history, zero-trust actions, managed resources. */
export const mfaAuthzStores: readonly MongoStoreRegistration[] = [
  mongoStore(MfaLockouts, (db, c) => new MongoMfaLockouts({ db, clock: c.resolve(Clock) })),
  mongoStore(
    FactorContextRepository,
    (db, c) =>
      new MongoFactorContextRepository({ db, clock: c.resolve(Clock), retentionMs: flowRetentionMs(c) }),
  ),
  // Authenticator apps (totpPlugin): one document per account, the secret sealed.
  mongoStore(TotpEnrolmentStore, (db) => new MongoTotpEnrolmentStore({ db })),
  mongoStore(EscalationStore, (db, c) => new MongoEscalationStore({ db, clock: c.resolve(Clock) })),
  mongoStore(SignInHistoryStore, (db, c) => new MongoSignInHistoryStore({ db, clock: c.resolve(Clock) })),
  mongoStore(
    PolicyRepository,
    (db, c) => new MongoPolicyRepository({ db, clock: c.resolve(Clock), ids: c.resolve(IdGenerator) }),
  ),
  mongoStore(PolicyRevisionRepository, (db) => new MongoPolicyRevisionRepository({ db })),
  mongoStore(ZeroTrustActionStore, (db, c) => new MongoZeroTrustActionStore({ db, clock: c.resolve(Clock) })),
  mongoStore(
    ManagedResourceRepository,
    (db, c) =>
      new MongoManagedResourceRepository({ db, clock: c.resolve(Clock), ids: c.resolve(IdGenerator) }),
  ),
];

// As the MFA module keeps its in-memory flows: three session timeouts after the last write (the
// repository's default when no MFA module declares the property).
function flowRetentionMs(c: DependencyContainer): number | undefined {
  const properties = c.resolve(PlatformProperties);
  if (!properties.declares("platform.auth.mfa.sessionTimeoutMs")) return undefined;
  return mfaSettingsFromProperties(properties).sessionTimeoutMs * 3;
}
