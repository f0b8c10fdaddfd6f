import { ChangeCounters, Clock, DistributedLock } from "@keyward/core/ports";
import { MongoChangeCounters } from "./mongo-change-counters.js";
import { MongoDistributedLock } from "./mongo-distributed-lock.js";
import { type MongoStoreRegistration, mongoStore } from "./mongo-store-registration.js";

/** The kernel's coordination stores on MongoDB: lease locks and change counters shared by every instance. */
export const coordinationStores: readonly MongoStoreRegistration[] = [
  mongoStore(DistributedLock, (db, c) => new MongoDistributedLock({ db, clock: c.resolve(Clock) })),
  mongoStore(ChangeCounters, (db) => new MongoChangeCounters({ db })),
];
