import { expect } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { isPlatformError, type PlatformError } from "../../kernel/platform-error.js";
import { CountingPasswordHasher } from "../password/counting-password-hasher.js";
import { ScryptPasswordHasher } from "../password/scrypt-password-hasher.js";
import { InMemoryLoginThrottle } from "../throttle/in-memory-login-throttle.js";
import type { LoginThrottleLimits } from "../throttle/login-throttle.js";
import { InMemoryUserRepository } from "../users/in-memory-user-repository.js";
import type { Authentication } from "./authentication.js";
import { PasswordAuthenticator, type PasswordAuthenticatorOptions } from "./password-authenticator.js";

/** The password of every seeded account. */
export const PASSWORD = "correct horse battery staple";
/** The attacker's address (the fixture's default). */
export const ATTACKER_IP = "203.0.113.66";
/** The real user's address. */
export const USER_IP = "198.51.100.7";

/** Options of `authenticatorFixture`. */
export interface AuthenticatorFixtureOptions {
  limits?: Partial<LoginThrottleLimits>;
  /** Overrides of the authenticator's collaborators (e.g. a failing repository). */
  override?: Partial<PasswordAuthenticatorOptions>;
}

/**
 * A PasswordAuthenticator over in-memory adapters and a cheap scrypt (N = 2^10) behind a counting
 * hasher, with accounts `alice` (ROLE_USER), `locked`, `disabled` and `passwordless` seeded.
 */
export async function authenticatorFixture(options: AuthenticatorFixtureOptions = {}) {
  const clock = new ManualClock();
  const scrypt = new ScryptPasswordHasher({ costLog2: 10 });
  const hasher = new CountingPasswordHasher(scrypt);
  const users = new InMemoryUserRepository({ ids: new CryptoIdGenerator(), clock });
  const throttle = new InMemoryLoginThrottle({ clock, ...options.limits });
  const audit = new InMemoryAuditSink(10_000, clock);
  const passwordHash = await scrypt.hash(PASSWORD);
  const alice = await users.create({ username: "Alice", passwordHash, authorities: ["ROLE_USER"] });
  await users.create({ username: "locked", passwordHash, locked: true });
  await users.create({ username: "disabled", passwordHash, enabled: false });
  await users.create({ username: "passwordless" });
  const authenticator = new PasswordAuthenticator({
    users,
    hasher,
    throttle,
    clock,
    audit,
    ...options.override,
  });
  const login = (
    username: unknown,
    password: unknown,
    remoteAddress = ATTACKER_IP,
  ): Promise<Authentication> =>
    authenticator.authenticate({ username, password, remoteAddress, method: "form" });
  return { clock, scrypt, hasher, users, throttle, audit, authenticator, alice, login };
}

/** The PlatformError a sign-in was refused with (fails the test when it succeeded or threw anything else). */
export async function refusal(attempt: Promise<unknown>): Promise<PlatformError> {
  try {
    await attempt;
  } catch (error) {
    if (isPlatformError(error)) return error;
    throw error;
  }
  expect.fail("the sign-in succeeded");
}

/** What a client can observe of a refusal: code, message and details. */
export function observable(error: PlatformError): { code: string; message: string; details: unknown } {
  return { code: error.code, message: error.message, details: error.details };
}
