import { createHash } from "node:crypto";
import type { InjectionToken } from "tsyringe";
import type { AuthenticationFactor, AuthenticationMethod } from "../authentication/authentication.js";

/** Lifecycle of one refresh token: `active` until used once (`rotated`) or revoked; `revoked` is final. */
export type RefreshTokenStatus = "active" | "rotated" | "revoked";

/** What a refresh token remembers of the sign-in, so refreshed access tokens carry the same facts. */
export interface RefreshTokenAuthentication {
  readonly username: string;
  readonly authorities: readonly string[];
  /** The original sign-in method (never `bearer`). */
  readonly method: Exclude<AuthenticationMethod, "bearer">;
  /** Epoch ms of the primary sign-in; `auth_time` stays this across refreshes. */
  readonly authenticatedAt: number;
  readonly factors: readonly AuthenticationFactor[];
  /** The account's security stamp at sign-in (see AccountStanding); absent when it had none. */
  readonly securityStamp?: string | undefined;
}

/** One stored refresh token. The token itself is never stored, only its hash. */
export interface RefreshTokenRecord {
  readonly id: string;
  /** `hashRefreshToken(token)`: SHA-256 of the opaque token, base64url. Unique. */
  readonly tokenHash: string;
  /** All tokens rotated from one sign-in share a family; reuse of an old one revokes the family. */
  readonly familyId: string;
  readonly userId: string;
  readonly authentication: RefreshTokenAuthentication;
  /** Epoch ms; from then on the record is treated as absent. */
  readonly expiresAt: number;
  readonly status: RefreshTokenStatus;
  /** Epoch ms when `rotate` spent it (absent until then); tells a lost race from a replay. */
  readonly rotatedAt?: number;
  /** Bumped by every status change; the compare-and-set key. */
  readonly version: number;
}

/** A refresh token to store: the store sets `status: "active"` and `version: 1`. */
export type NewRefreshTokenRecord = Omit<RefreshTokenRecord, "status" | "version" | "rotatedAt">;

/**
 * What one `rotate` call decided, from the record as its single conditional update found it:
 * `rotated` (this call spent the token; `record` as stored now), `raced` (another rotation spent it
 * less than the race window ago), `reused` (spent longer ago: a replay), `revoked`, or `unknown`
 * (no live record with that hash).
 */
export type RefreshTokenRotation =
  | { readonly outcome: "rotated" | "raced" | "reused" | "revoked"; readonly record: RefreshTokenRecord }
  | { readonly outcome: "unknown" };

/**
 * Where refresh tokens live. Expiry is checked on read with the Clock: a record whose `expiresAt` is
 * not in the future is absent for every method (a database adapter also drops it with a TTL index).
 * Every method returns copies.
 */
export interface RefreshTokenStore {
  /** Stores a new active record at version 1. Throws PlatformError `CONFLICT` on a duplicate id or tokenHash. */
  create(record: NewRefreshTokenRecord): Promise<RefreshTokenRecord>;
  /** The live record with this token hash, whatever its status, or undefined. */
  findByHash(tokenHash: string): Promise<RefreshTokenRecord | undefined>;
  /**
   * Compare-and-set: changes the status only if the stored version is still `expectedVersion`, bumps
   * the version and returns the updated record. Returns undefined (and changes nothing) when the
   * version moved on, the record is absent or expired, or it is already `revoked` (final), so exactly
   * one of two concurrent rotations of one token wins.
   */
  compareAndSetStatus(
    id: string,
    expectedVersion: number,
    status: RefreshTokenStatus,
  ): Promise<RefreshTokenRecord | undefined>;
  /**
   * Spends the live record with this hash in one atomic conditional update: only an `active` record
   * becomes `rotated` (version bumped, `rotatedAt` = now), so exactly one of any number of concurrent
   * calls gets `rotated`. Every other call learns from the same step why it lost: `raced` when the
   * record was rotated less than `raceWindowMs` before now (a rotated record without `rotatedAt`
   * counts as older), `reused` when longer ago, `revoked`, or `unknown`. Changes nothing unless it
   * answers `rotated`. A database adapter does this in one command (MongoDB: `findOneAndUpdate` on
   * `{ tokenHash, expiresAt > now }` with a pipeline update that sets the status, `rotatedAt` and
   * version only where the status is `active`, returning the document as it was before).
   */
  rotate(tokenHash: string, raceWindowMs: number): Promise<RefreshTokenRotation>;
  /** Revokes every live record of the family (bumping their versions); returns how many it changed. */
  revokeFamily(familyId: string): Promise<number>;
  /**
   * Revokes every live record of the user, in every family; returns the ids of the families it
   * changed (so the caller can deny their access tokens too), each once.
   */
  revokeAllForUser(userId: string): Promise<string[]>;
}

/** DI token of the RefreshTokenStore port. */
export const RefreshTokenStore: InjectionToken<RefreshTokenStore> = Symbol.for("platform.RefreshTokenStore");

/** The stored form of an opaque refresh token: SHA-256, base64url (a fast hash suffices: the token has 256 random bits). */
export function hashRefreshToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("base64url");
}
