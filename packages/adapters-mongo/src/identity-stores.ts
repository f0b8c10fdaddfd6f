import { PlatformProperties } from "@keyward/core";
import {
  Clock,
  IdGenerator,
  LoginThrottle,
  OneTimeTokenService,
  OttGenerationLimiter,
  PasskeyCredentialRepository,
  PasswordResetTokenService,
  SessionStore,
  UserRepository,
  WebAuthnChallengeStore,
} from "@keyward/core/ports";
import {
  ottGenerationLimitsOf,
  ottTokenTtlOf,
  PASSWORD_RESET_TOKEN_TTL_MS,
  throttleLimitsOf,
} from "./identity-settings.js";
import { MongoLoginThrottle } from "./mongo-login-throttle.js";
import { MongoOneTimeTokenService } from "./mongo-one-time-token-service.js";
import { MongoOttGenerationLimiter } from "./mongo-ott-generation-limiter.js";
import { MongoPasskeyCredentialRepository } from "./mongo-passkey-credential-repository.js";
import { MongoSessionStore } from "./mongo-session-store.js";
import { type MongoStoreRegistration, mongoStore } from "./mongo-store-registration.js";
import { MongoUserRepository } from "./mongo-user-repository.js";
import { MongoWebAuthnChallengeStore } from "./mongo-webauthn-challenge-store.js";

/** The identity module's stores on MongoDB: users, sessions, passkeys, challenges, OTT, throttle. */
export const identityStores: readonly MongoStoreRegistration[] = [
  mongoStore(
    UserRepository,
    (db, c) => new MongoUserRepository({ db, ids: c.resolve(IdGenerator), clock: c.resolve(Clock) }),
  ),
  mongoStore(SessionStore, (db, c) => new MongoSessionStore({ db, clock: c.resolve(Clock) })),
  mongoStore(
    PasskeyCredentialRepository,
    (db, c) => new MongoPasskeyCredentialRepository({ db, clock: c.resolve(Clock) }),
  ),
  mongoStore(
    WebAuthnChallengeStore,
    (db, c) => new MongoWebAuthnChallengeStore({ db, clock: c.resolve(Clock) }),
  ),
  mongoStore(
    OneTimeTokenService,
    (db, c) =>
      new MongoOneTimeTokenService({
        db,
        clock: c.resolve(Clock),
        ids: c.resolve(IdGenerator),
        ttlMs: ottTokenTtlOf(c.resolve(PlatformProperties)),
      }),
  ),
  // Reset links: the same service over a collection of their own (a reset token never signs in, a
  // magic link never resets a password), one live link per account, as the core's default.
  mongoStore(
    PasswordResetTokenService,
    (db, c) =>
      new MongoOneTimeTokenService({
        db,
        clock: c.resolve(Clock),
        ids: c.resolve(IdGenerator),
        ttlMs: PASSWORD_RESET_TOKEN_TTL_MS,
        maxTokensPerUser: 1,
        collection: "password_reset_tokens",
      }),
  ),
  mongoStore(
    OttGenerationLimiter,
    (db, c) =>
      new MongoOttGenerationLimiter({
        db,
        clock: c.resolve(Clock),
        ...ottGenerationLimitsOf(c.resolve(PlatformProperties)),
      }),
  ),
  mongoStore(
    LoginThrottle,
    (db, c) =>
      new MongoLoginThrottle({
        db,
        clock: c.resolve(Clock),
        ...throttleLimitsOf(c.resolve(PlatformProperties)),
      }),
  ),
];
