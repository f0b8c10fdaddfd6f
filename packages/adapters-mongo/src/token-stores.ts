import type { MongoStoreRegistration } from "./mongo-store-registration.js";

/** Token and key stores on MongoDB: refresh-token families, revoked access tokens, keys, audit trail. */
export const tokenStores: readonly MongoStoreRegistration[] = [];
