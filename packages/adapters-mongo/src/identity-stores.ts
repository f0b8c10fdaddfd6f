import { Clock, IdGenerator, SessionStore, UserRepository } from "@platform/core/ports";
import { MongoSessionStore } from "./mongo-session-store.js";
import { type MongoStoreRegistration, mongoStore } from "./mongo-store-registration.js";
import { MongoUserRepository } from "./mongo-user-repository.js";

/** The identity module's stores on MongoDB: users, sessions, passkeys, challenges, OTT, throttle. */
export const identityStores: readonly MongoStoreRegistration[] = [
  mongoStore(
    UserRepository,
    (db, c) => new MongoUserRepository({ db, ids: c.resolve(IdGenerator), clock: c.resolve(Clock) }),
  ),
  mongoStore(SessionStore, (db, c) => new MongoSessionStore({ db, clock: c.resolve(Clock) })),
];
