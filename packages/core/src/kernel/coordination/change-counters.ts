import type { InjectionToken } from "tsyringe";

/**
 * Named counters that a writer moves after a change other instances must hear of (an account's
 * standing, a zero-trust action) and that every instance polls, so in-process caches of shared state
 * are dropped within one poll interval on every instance, on any deployment (no change streams).
 * A counter only grows; a topic never bumped reads 0.
 */
export interface ChangeCounters {
  /** Adds one to the topic's counter in one atomic step; the new value. VALIDATION_FAILED for a topic that is not 1..128 characters. */
  bump(topic: string): Promise<number>;
  /** The counters of `topics` in one read (0 for a topic never bumped), keyed by topic. */
  read(topics: readonly string[]): Promise<Record<string, number>>;
}

/** DI token of the ChangeCounters port. */
export const ChangeCounters: InjectionToken<ChangeCounters> = Symbol.for("platform.ChangeCounters");
