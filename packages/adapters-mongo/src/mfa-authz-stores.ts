import type { MongoStoreRegistration } from "./mongo-store-registration.js";

/** The MFA and authorization modules' stores on MongoDB: lockouts, factor contexts, escalations,
 * sign-in history, policies, zero-trust actions. */
export const mfaAuthzStores: readonly MongoStoreRegistration[] = [];
