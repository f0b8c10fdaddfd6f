import { RecoveryCodeStore } from "@keyward/core/ports";
import { MongoRecoveryCodeStore } from "./mongo-recovery-code-store.js";
import { type MongoStoreRegistration, mongoStore } from "./mongo-store-registration.js";

/** The recovery-code factor's store on MongoDB (used when recoveryCodesPlugin is listed). */
export const recoveryCodeStores: readonly MongoStoreRegistration[] = [
  mongoStore(RecoveryCodeStore, (db) => new MongoRecoveryCodeStore({ db })),
];
