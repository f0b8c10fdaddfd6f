import {
  AuditLog,
  AuditSink,
  Clock,
  KeyStore,
  Logger,
  RefreshTokenStore,
  RevokedAccessTokenStore,
} from "@keyward/core/ports";
import type { InjectionToken } from "tsyringe";
import { MongoAuditTrail } from "./mongo-audit-trail.js";
import { MongoKeyStore } from "./mongo-key-store.js";
import { MongoRefreshTokenStore } from "./mongo-refresh-token-store.js";
import { MongoRevokedAccessTokenStore } from "./mongo-revoked-access-token-store.js";
import { type MongoStoreRegistration, mongoStore } from "./mongo-store-registration.js";

/** The one audit trail behind both AuditSink and AuditLog (private: hosts ask for the ports). */
const MongoAuditTrailToken: InjectionToken<MongoAuditTrail> = Symbol("platform.mongo.AuditTrail");

/** Token and key stores on MongoDB: refresh-token families, revoked access tokens, keys, audit trail. */
export const tokenStores: readonly MongoStoreRegistration[] = [
  mongoStore(RefreshTokenStore, (db, c) => new MongoRefreshTokenStore({ db, clock: c.resolve(Clock) })),
  mongoStore(
    RevokedAccessTokenStore,
    (db, c) => new MongoRevokedAccessTokenStore({ db, clock: c.resolve(Clock) }),
  ),
  mongoStore(KeyStore, (db) => new MongoKeyStore({ db })),
  mongoStore(
    MongoAuditTrailToken,
    (db, c) => new MongoAuditTrail({ db, clock: c.resolve(Clock), logger: c.resolve(Logger) }),
  ),
  mongoStore(AuditSink, (_db, c) => c.resolve(MongoAuditTrailToken)),
  mongoStore(AuditLog, (_db, c) => c.resolve(MongoAuditTrailToken)),
];
