import type { Clock } from "../../kernel/clock.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { usernameKey } from "../users/username-key.js";
import {
  type ConsumeOneTimeTokenRequest,
  type GenerateOneTimeTokenRequest,
  hashOneTimeTokenValue,
  type OneTimeToken,
  type OneTimeTokenService,
  oneTimeToken,
} from "./one-time-token-service.js";

/** Default of `InMemoryOneTimeTokenServiceOptions.ttlMs`: five minutes. */
export const DEFAULT_ONE_TIME_TOKEN_TTL_MS = 5 * 60_000;
/** Default of `InMemoryOneTimeTokenServiceOptions.maxTokensPerUser`. */
export const DEFAULT_MAX_LIVE_TOKENS_PER_USER = 3;
/** Default of `InMemoryOneTimeTokenServiceOptions.maxTokens`: about 20 MB of records at most. */
export const DEFAULT_MAX_ONE_TIME_TOKENS = 100_000;
/** Random bytes in a token value: 256 bits, written as 43 base64url characters. */
export const ONE_TIME_TOKEN_BYTES = 32;
/** The shape of every value the in-memory service issues: 43 base64url characters, no padding. */
export const ONE_TIME_TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** Options of the InMemoryOneTimeTokenService. */
export interface InMemoryOneTimeTokenServiceOptions {
  /** Stamps and checks expiry. */
  clock: Clock;
  /** Draws token values with `secret(32)`. */
  ids: IdGenerator;
  /** How long a token signs in, in milliseconds. Default 5 minutes. */
  ttlMs?: number;
  /** Live tokens one account may hold; a new one evicts the oldest. Default 3. */
  maxTokensPerUser?: number;
  /** Live tokens held in all; past it the oldest token goes. Default 100 000. */
  maxTokens?: number;
}

/** What the store keeps per token: never the value, only its hash (the Map key). */
interface TokenRecord {
  username: string;
  userKey: string;
  expiresAt: number;
}

/** A stored record as `records()` shows it, for tests and diagnostics. */
export interface StoredOneTimeToken {
  tokenHash: string;
  username: string;
  expiresAt: number;
}

/**
 * The reference OneTimeTokenService, used by tests and the embedded default (per process: tokens do not
 * survive a restart nor reach another instance).
 *
 * Values are `ids.secret(32)`: 32 CSPRNG bytes as 43 base64url characters (`ONE_TIME_TOKEN_FORMAT`), fit
 * for a link and, pasted, for a code field. Only `hashOneTimeTokenValue(value)` is stored, with the
 * username and the expiry. `consume` is a compare-and-delete on that hash with no `await` between the
 * lookup and the delete, so of two concurrent submissions exactly one gets the token.
 *
 * A new token does not invalidate the account's earlier live ones (a user who asked twice may click
 * either mail), but an account holds at most `maxTokensPerUser` live tokens: the oldest is evicted.
 * A successful `consume` spends the account's other live tokens too: the sign-in happened, and links
 * still lying in a mailbox are only risk. Memory is bounded: expired records are swept on every
 * `generate`, and past `maxTokens` the oldest record goes (a flood can evict real tokens early; the
 * generation limiter bounds how fast one address can flood). No timers.
 */
export class InMemoryOneTimeTokenService implements OneTimeTokenService {
  /** Records by token hash, in creation order (so the oldest and the first to expire are in front). */
  private readonly byHash = new Map<string, TokenRecord>();
  /** Token hashes by username key, oldest first. */
  private readonly byUser = new Map<string, string[]>();
  private readonly clock: Clock;
  private readonly ids: IdGenerator;
  private readonly ttlMs: number;
  private readonly maxTokensPerUser: number;
  private readonly maxTokens: number;

  constructor(options: InMemoryOneTimeTokenServiceOptions) {
    this.clock = options.clock;
    this.ids = options.ids;
    this.ttlMs = options.ttlMs ?? DEFAULT_ONE_TIME_TOKEN_TTL_MS;
    this.maxTokensPerUser = options.maxTokensPerUser ?? DEFAULT_MAX_LIVE_TOKENS_PER_USER;
    this.maxTokens = options.maxTokens ?? DEFAULT_MAX_ONE_TIME_TOKENS;
    const limits = { ttlMs: this.ttlMs, maxTokensPerUser: this.maxTokensPerUser, maxTokens: this.maxTokens };
    for (const [name, value] of Object.entries(limits)) {
      if (!Number.isSafeInteger(value) || value < 1) {
        throw new PlatformError(
          "CONFIGURATION_INVALID",
          `One-time token ${name} must be a positive integer`,
          {
            details: { key: name, value },
          },
        );
      }
    }
  }

  /** Records held (expired ones not yet swept included). */
  get size(): number {
    return this.byHash.size;
  }

  /** The stored records, oldest first: hashes, never values. For tests and diagnostics. */
  records(): StoredOneTimeToken[] {
    return [...this.byHash].map(([tokenHash, r]) => ({
      tokenHash,
      username: r.username,
      expiresAt: r.expiresAt,
    }));
  }

  async generate(request: GenerateOneTimeTokenRequest): Promise<OneTimeToken> {
    const username = request.username;
    const userKey = typeof username === "string" ? usernameKey(username) : "";
    if (userKey === "") throw new PlatformError("VALIDATION_FAILED", "A username is required");
    const now = this.clock.now();
    this.sweep(now);
    const value = this.ids.secret(ONE_TIME_TOKEN_BYTES);
    const tokenHash = hashOneTimeTokenValue(value);
    // Only a broken IdGenerator repeats a value; never let it overwrite another account's token.
    if (this.byHash.has(tokenHash))
      throw new PlatformError("CONFLICT", "Generated one-time token already exists");
    const expiresAt = now + this.ttlMs;
    this.byHash.set(tokenHash, { username, userKey, expiresAt });
    const mine = this.byUser.get(userKey) ?? [];
    mine.push(tokenHash);
    this.byUser.set(userKey, mine);
    while (mine.length > this.maxTokensPerUser) this.remove(mine[0]!);
    for (const oldest of this.byHash.keys()) {
      if (this.byHash.size <= this.maxTokens) break;
      this.remove(oldest);
    }
    return oneTimeToken(value, username, expiresAt);
  }

  async consume(request: ConsumeOneTimeTokenRequest): Promise<OneTimeToken | undefined> {
    const value = request.tokenValue;
    if (typeof value !== "string" || !ONE_TIME_TOKEN_FORMAT.test(value)) return undefined;
    const tokenHash = hashOneTimeTokenValue(value);
    const record = this.byHash.get(tokenHash);
    if (!record) return undefined;
    // Compare-and-delete with no await in between: a concurrent consume finds nothing.
    this.remove(tokenHash);
    if (this.clock.now() >= record.expiresAt) return undefined;
    for (const sibling of [...(this.byUser.get(record.userKey) ?? [])]) this.remove(sibling);
    return oneTimeToken(value, record.username, record.expiresAt);
  }

  async revokeAllFor(username: string): Promise<void> {
    const userKey = typeof username === "string" ? usernameKey(username) : "";
    for (const tokenHash of [...(this.byUser.get(userKey) ?? [])]) this.remove(tokenHash);
  }

  private remove(tokenHash: string): void {
    const record = this.byHash.get(tokenHash);
    if (!record) return;
    this.byHash.delete(tokenHash);
    const mine = this.byUser.get(record.userKey);
    if (!mine) return;
    const at = mine.indexOf(tokenHash);
    if (at >= 0) mine.splice(at, 1);
    if (mine.length === 0) this.byUser.delete(record.userKey);
  }

  /** Drops expired records from the front; stops at the first live one. */
  private sweep(now: number): void {
    for (const [tokenHash, record] of this.byHash) {
      if (now < record.expiresAt) break;
      this.remove(tokenHash);
    }
  }
}
