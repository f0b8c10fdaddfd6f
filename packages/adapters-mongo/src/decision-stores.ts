import { DecisionHistoryStore, SealedEvidenceStore } from "@keyward/core/ports";
import { MongoDecisionHistoryStore } from "./mongo-decision-history-store.js";
import { MongoSealedEvidenceStore } from "./mongo-sealed-evidence-store.js";
import { type MongoStoreRegistration, mongoStore } from "./mongo-store-registration.js";

/** The decisions module's stores on MongoDB: the decision history (past decisions read into the next) and the sealed evidence. */
export const decisionStores: readonly MongoStoreRegistration[] = [
  mongoStore(DecisionHistoryStore, (db) => new MongoDecisionHistoryStore({ db })),
  mongoStore(SealedEvidenceStore, (db) => new MongoSealedEvidenceStore({ db })),
];
