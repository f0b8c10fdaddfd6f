import { PlatformError } from "@keyward/core/errors";
import type {
  Clock,
  ConsumeOneTimeTokenRequest,
  GenerateOneTimeTokenRequest,
  IdGenerator,
  OneTimeToken,
  OneTimeTokenService,
} from "@keyward/core/ports";
import { hashOneTimeTokenValue, oneTimeToken, usernameKey } from "@keyward/core/adapter-kit";
import type { Collection, Db } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";

/** Defaults of the MongoOneTimeTokenService: those of the core's in-memory service. */
export const MONGO_ONE_TIME_TOKEN_DEFAULTS = Object.freeze({ ttlMs: 5 * 60_000, maxTokensPerUser: 3 });

/** Random bytes in a value (`ids.secret(32)`): 43 base64url characters, as the in-memory service. */
const TOKEN_BYTES = 32;
/** The only shape a value this service issues has; anything else is refused without a round trip. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** One live (or not yet burned) token of an account: its hash, never its value. */
export interface OneTimeTokenEntry {
  /** `hashOneTimeTokenValue(value)`, base64url SHA-256. */
  hash: string;
  /** The username the token was generated for, as given. */
  username: string;
  expiresAt: number;
}

/** The `one_time_tokens` (or `password_reset_tokens`) document: one account's tokens, `_id` = usernameKey. */
export interface OneTimeTokensDocument {
  _id: string;
  /** Oldest first; at most `maxTokensPerUser` entries. */
  tokens: OneTimeTokenEntry[];
  /** The latest expiry of any entry, for the TTL index (liveness is judged by the Clock on consume). */
  expiresAtDate: Date;
}

/** Options of the MongoOneTimeTokenService. */
export interface MongoOneTimeTokenServiceOptions {
  db: Db;
  /** Stamps and checks expiry. */
  clock: Clock;
  /** Draws token values with `secret(32)`. */
  ids: IdGenerator;
  /** How long a token signs in, in milliseconds. Default 5 minutes. */
  ttlMs?: number;
  /** Live tokens one account may hold; a new one evicts the oldest. Default 3. */
  maxTokensPerUser?: number;
  /** Collection name (default `one_time_tokens`; the password-reset service uses `password_reset_tokens`). */
  collection?: string;
}

/**
 * OneTimeTokenService on MongoDB, with the in-memory service's semantics. One document per account
 * (`_id` = usernameKey) holds the account's token hashes; values are never stored.
 * - `generate` is one upsert: `$push` with `$each`/`$slice` appends the new hash and keeps the newest
 *   `maxTokensPerUser` (the oldest is evicted), `$max` moves the TTL date. A repeated hash (only a
 *   broken IdGenerator repeats a value) is refused by the partial unique index on `tokens.hash` →
 *   `CONFLICT`. One command (two only when a concurrent first generate for the account wins the insert).
 * - `consume` is one `findOneAndDelete` of the account document whose `tokens` hold this hash live
 *   (`$elemMatch` with `expiresAt > now`): single use is atomic, and deleting the document spends the
 *   account's other tokens in the same step (the sibling rule). When nothing live matched, one more
 *   `updateOne` `$pull`s the hash, so an expired token stays refused even if the clock went back.
 *   One command on success, two on failure; a value of the wrong shape costs none.
 * No global bound as in the in-memory service (a database is not process memory): the per-account cap,
 * the TTL index and the generation limiter bound the collection.
 */
export class MongoOneTimeTokenService implements OneTimeTokenService {
  private readonly accounts: Collection<OneTimeTokensDocument>;
  private readonly clock: Clock;
  private readonly ids: IdGenerator;
  private readonly ttlMs: number;
  private readonly maxTokensPerUser: number;

  constructor(options: MongoOneTimeTokenServiceOptions) {
    this.accounts = options.db.collection<OneTimeTokensDocument>(options.collection ?? "one_time_tokens");
    this.clock = options.clock;
    this.ids = options.ids;
    this.ttlMs = options.ttlMs ?? MONGO_ONE_TIME_TOKEN_DEFAULTS.ttlMs;
    this.maxTokensPerUser = options.maxTokensPerUser ?? MONGO_ONE_TIME_TOKEN_DEFAULTS.maxTokensPerUser;
    for (const [name, value] of Object.entries({
      ttlMs: this.ttlMs,
      maxTokensPerUser: this.maxTokensPerUser,
    })) {
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

  /** Creates the partial unique index on the token hashes and the TTL index (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.accounts.createIndexes([
      // Partial: an account whose last hash was pulled holds `tokens: []`, which a plain unique
      // multikey index would key as one shared value and refuse for the second such account.
      {
        key: { "tokens.hash": 1 },
        name: "tokenHash_unique",
        unique: true,
        partialFilterExpression: { "tokens.hash": { $exists: true } },
      },
      { key: { expiresAtDate: 1 }, name: "expiresAt_ttl", expireAfterSeconds: 0 },
    ]);
  }

  async generate(request: GenerateOneTimeTokenRequest): Promise<OneTimeToken> {
    const username = request.username;
    const userKey = typeof username === "string" ? usernameKey(username) : "";
    if (userKey === "") throw new PlatformError("VALIDATION_FAILED", "A username is required");
    const value = this.ids.secret(TOKEN_BYTES);
    const expiresAt = this.clock.now() + this.ttlMs;
    const entry: OneTimeTokenEntry = { hash: hashOneTimeTokenValue(value), username, expiresAt };
    const update = {
      $push: { tokens: { $each: [entry], $slice: -this.maxTokensPerUser } },
      $max: { expiresAtDate: new Date(expiresAt) },
    };
    try {
      await this.push(userKey, update);
    } catch (e) {
      if (isDuplicateKey(e)) {
        throw new PlatformError("CONFLICT", "Generated one-time token already exists", { cause: e });
      }
      throw e;
    }
    return oneTimeToken(value, username, expiresAt);
  }

  async consume(request: ConsumeOneTimeTokenRequest): Promise<OneTimeToken | undefined> {
    const value = request.tokenValue;
    if (typeof value !== "string" || !TOKEN_FORMAT.test(value)) return undefined;
    const hash = hashOneTimeTokenValue(value);
    const spent = await this.accounts.findOneAndDelete({
      tokens: { $elemMatch: { hash, expiresAt: { $gt: this.clock.now() } } },
    });
    const entry = spent?.tokens.find((t) => t.hash === hash);
    if (entry) return oneTimeToken(value, entry.username, entry.expiresAt);
    // Unknown, spent or expired: burn an expired one, so a clock set back never revives it.
    await this.accounts.updateOne({ "tokens.hash": hash }, { $pull: { tokens: { hash } } });
    return undefined;
  }

  /** One `deleteOne` of the account's document (every token of it). */
  async revokeAllFor(username: string): Promise<void> {
    const userKey = typeof username === "string" ? usernameKey(username) : "";
    if (userKey !== "") await this.accounts.deleteOne({ _id: userKey });
  }

  /** The upsert of `generate`; retried once when a concurrent first generate won the insert. */
  private async push(userKey: string, update: object): Promise<void> {
    try {
      await this.accounts.updateOne({ _id: userKey }, update, { upsert: true });
    } catch (e) {
      if (!isDuplicateKey(e) || e.keyPattern?._id === undefined) throw e;
      await this.accounts.updateOne({ _id: userKey }, update, { upsert: true });
    }
  }
}
