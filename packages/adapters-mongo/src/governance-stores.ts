import { InstanceHeartbeatStore, ReleaseEvidenceLedger, ReleaseRegistry } from "@keyward/core/ports";
import { MongoInstanceHeartbeatStore } from "./mongo-instance-heartbeat-store.js";
import { MongoReleaseEvidenceLedger } from "./mongo-release-evidence-ledger.js";
import { MongoReleaseRegistry } from "./mongo-release-registry.js";
import { type MongoStoreRegistration, mongoStore } from "./mongo-store-registration.js";

/**
 * The governance module's stores on MongoDB: the release registry (heads, history, rollback
 * executions), the evidence ledger and the instance heartbeats (issue 31). Registered whether or not a governance plugin runs: without
 * one nothing resolves them but the start, which only creates their indexes.
 */
export const governanceStores: readonly MongoStoreRegistration[] = [
  mongoStore(ReleaseRegistry, (db) => new MongoReleaseRegistry({ db })),
  mongoStore(ReleaseEvidenceLedger, (db) => new MongoReleaseEvidenceLedger({ db })),
  mongoStore(InstanceHeartbeatStore, (db) => new MongoInstanceHeartbeatStore({ db })),
];
