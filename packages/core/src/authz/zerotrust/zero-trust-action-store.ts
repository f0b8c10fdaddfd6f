import type { InjectionToken } from "tsyringe";
import type { ZeroTrustAction } from "./zero-trust-action.js";

/** Who wrote an action: the host application, an administrator, the adaptive MFA analyzer, or another named writer. */
export type ZeroTrustActionSource = "host" | "admin" | "adaptive-mfa" | (string & {});

/** What a writer hands the store; the store adds `at`, `expiresAt` and `version`. */
export interface ZeroTrustActionRecordInput {
  /** `user:<userId>` or `session:<handle>` (see zero-trust-subject.ts). */
  readonly subject: string;
  readonly action: ZeroTrustAction;
  /** Operator-facing reason; never shown to the caller the action is about. */
  readonly reason?: string;
  readonly source: ZeroTrustActionSource;
}

/** A stored zero-trust verdict about one subject. */
export interface ZeroTrustActionRecord extends ZeroTrustActionRecordInput {
  /** When it was written, epoch ms from the store's Clock; a step-up completed at or after this satisfies a CHALLENGE. */
  readonly at: number;
  /** Epoch ms from which the record reads as absent. */
  readonly expiresAt: number;
  /** 1 for a subject without a live record, then +1 per put. */
  readonly version: number;
}

/** How to list records. */
export interface ZeroTrustActionListOptions {
  /** At most this many, 1..ZERO_TRUST_LIST_MAX_LIMIT. Default ZERO_TRUST_LIST_DEFAULT_LIMIT. */
  readonly limit?: number;
  /** Only records with this action (the blocked list is `{ action: "BLOCK" }`). */
  readonly action?: ZeroTrustAction;
}

/** Default page size of `list`. */
export const ZERO_TRUST_LIST_DEFAULT_LIMIT = 100;
/** Largest page `list` returns. */
export const ZERO_TRUST_LIST_MAX_LIMIT = 1_000;

/**
 * Where zero-trust verdicts live, one record per subject (the latest write wins). Expiry is checked
 * at read time: a record whose `expiresAt` passed is absent for `get`, `delete` and `list` (adapters
 * may also drop it with a TTL index). The blocked list is the set of live `user:` records with action
 * BLOCK. Every method returns copies. Errors: VALIDATION_FAILED for an empty subject, an unknown
 * action, a ttl that is not a finite number > 0, or a limit outside 1..ZERO_TRUST_LIST_MAX_LIMIT.
 */
export interface ZeroTrustActionStore {
  /** Stores (replaces) the subject's record with `at` = now, `expiresAt` = now + ttlMs, and returns it. */
  put(record: ZeroTrustActionRecordInput, ttlMs: number): Promise<ZeroTrustActionRecord>;
  /** The subject's live record; undefined when none or expired. */
  get(subject: string): Promise<ZeroTrustActionRecord | undefined>;
  /** Removes the subject's record; true when a live one existed. */
  delete(subject: string): Promise<boolean>;
  /** Live records, newest `at` first (ties: subject ascending), at most `limit`. */
  list(options?: ZeroTrustActionListOptions): Promise<ZeroTrustActionRecord[]>;
}

/** DI token of the ZeroTrustActionStore port. */
export const ZeroTrustActionStore: InjectionToken<ZeroTrustActionStore> = Symbol.for(
  "platform.ZeroTrustActionStore",
);
