import { InspectionResultStore } from "@keyward/core/ports";
import { MongoInspectionResultStore } from "./mongo-inspection-result-store.js";
import { type MongoStoreRegistration, mongoStore } from "./mongo-store-registration.js";

/** The inspection module's stores on MongoDB (issue 32): the inspection results. */
export const inspectionStores: readonly MongoStoreRegistration[] = [
  mongoStore(InspectionResultStore, (db) => new MongoInspectionResultStore({ db })),
];
