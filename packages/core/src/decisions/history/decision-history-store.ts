import type { InjectionToken } from "tsyringe";

/** One past decision as the history keeps it: what was decided, for whom, on what. */
export interface DecisionHistoryRecord {
  /** The decision's id (unique in the store). */
  readonly id: string;
  /** When it was decided, epoch milliseconds. */
  readonly at: number;
  /** The event that asked for it. */
  readonly eventId: string;
  readonly eventKind: string;
  readonly userId: string;
  /** The username at decision time. */
  readonly subject?: string;
  readonly method?: string;
  readonly target?: string;
  /** The remote address as the event carried it. */
  readonly network?: string;
  readonly device?: string;
  /** The action written (after floors and the last-administrator rule). */
  readonly action: string;
  readonly riskScore?: number;
  readonly confidence?: number;
  /**
   * What became of it: `ENFORCED`, `DOWNGRADED` when the last-administrator rule applied, or
   * `NOT_ENFORCED` when an administrator's action on the user stood (nothing was written).
   */
  readonly outcome?: string;
}

/** Most records `recentFor` returns (and the most a prompt input carries). */
export const DECISION_HISTORY_MAX_LIMIT = 256;

/**
 * Past decisions, read back into the next decision's context (the PIP's past records). Records are
 * immutable once appended; every method returns copies.
 */
export interface DecisionHistoryStore {
  /** Stores a record; CONFLICT when a record with this id exists, VALIDATION_FAILED on a bad record. */
  append(record: DecisionHistoryRecord): Promise<void>;
  /**
   * The user's most recent records, newest first (by `at`, then most recently appended), at most
   * `limit` (1..DECISION_HISTORY_MAX_LIMIT, else VALIDATION_FAILED).
   */
  recentFor(userId: string, limit: number): Promise<DecisionHistoryRecord[]>;
}

/** DI token of the DecisionHistoryStore port. */
export const DecisionHistoryStore: InjectionToken<DecisionHistoryStore> = Symbol.for(
  "platform.DecisionHistoryStore",
);
