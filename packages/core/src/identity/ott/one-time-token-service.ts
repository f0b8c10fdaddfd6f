import { createHash } from "node:crypto";
import type { InjectionToken } from "tsyringe";

/**
 * A one-time sign-in token. The value is a secret: only the generated token
 * (and the consumed one, for the caller that presented it) can read it, through `getTokenValue()`, so
 * that logging or serialising a token object never prints it by accident.
 */
export interface OneTimeToken {
  /** The secret value the user presents (the built-in service: 43 base64url characters). */
  getTokenValue(): string;
  /** The canonical username of the account the token signs in; a token is bound to it. */
  readonly username: string;
  /** Epoch milliseconds from which the token no longer signs anyone in. */
  readonly expiresAt: number;
}

/** What `generate` needs: the account to bind the token to (Spring's GenerateOneTimeTokenRequest). */
export interface GenerateOneTimeTokenRequest {
  /** The canonical username of an existing, usable account (the generate filter checked it). */
  username: string;
}

/** What `consume` needs: the value the user presented (Spring's OneTimeTokenAuthenticationToken). */
export interface ConsumeOneTimeTokenRequest {
  tokenValue: string;
}

/**
 * Generates and verifies one-time tokens (Spring's OneTimeTokenService). Every adapter must make tokens
 * unguessable, store only a hash of the value, expire them, and consume them atomically: of any number
 * of concurrent `consume` calls with one value, exactly one gets the token. A database adapter does this
 * with one conditional delete (`findOneAndDelete({ _id: hash, expiresAt: { $gt: now } })`). A new token
 * leaves the account's earlier live tokens valid; a successful `consume` spends them all (the sign-in
 * happened; links left in a mailbox are only risk). `describeOneTimeTokenServiceContract` pins these
 * semantics.
 */
export interface OneTimeTokenService {
  /** Makes a new token bound to `request.username`. */
  generate(request: GenerateOneTimeTokenRequest): Promise<OneTimeToken>;
  /**
   * Spends the token with this value and returns it; undefined when the value is unknown, expired or
   * already spent (the caller cannot tell which, and neither can an attacker).
   */
  consume(request: ConsumeOneTimeTokenRequest): Promise<OneTimeToken | undefined>;
  /**
   * Revokes every unspent token of the account (matched by its username key, as `generate` binds them):
   * an account's standing changed (disabled, password set, authorities changed), so a link mailed
   * before must not sign anyone in or set a password after.
   */
  revokeAllFor(username: string): Promise<void>;
}

/** DI token of the OneTimeTokenService port (the in-memory one is registered only when the host gives none). */
export const OneTimeTokenService: InjectionToken<OneTimeTokenService> = Symbol.for(
  "platform.OneTimeTokenService",
);

/**
 * The key a token is stored under: base64url SHA-256 of its value. Unsalted on purpose: the value holds
 * 256 random bits, so a hash cannot be reversed by guessing, and a lookup needs a deterministic key.
 */
export function hashOneTimeTokenValue(tokenValue: string): string {
  return createHash("sha256").update(tokenValue, "utf8").digest("base64url");
}

/** A OneTimeToken whose value is kept in a closure, not in an enumerable field. */
export function oneTimeToken(value: string, username: string, expiresAt: number): OneTimeToken {
  return Object.freeze({
    getTokenValue: () => value,
    username,
    expiresAt,
    toJSON: () => ({ username, expiresAt }),
  });
}
