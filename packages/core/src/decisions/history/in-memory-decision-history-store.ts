import { PlatformError } from "../../kernel/platform-error.js";
import {
  DECISION_HISTORY_MAX_LIMIT,
  type DecisionHistoryRecord,
  type DecisionHistoryStore,
} from "./decision-history-store.js";
import { checkDecisionHistoryLimit, checkDecisionHistoryRecord } from "./decision-history-validation.js";

/** Options of the in-memory history; every field has a default. */
export interface InMemoryDecisionHistoryStoreOptions {
  /** Records kept per user, oldest dropped first (default DECISION_HISTORY_MAX_LIMIT). */
  perUser?: number;
  /** Users kept, the least recently written dropped first (default 100,000). */
  maxUsers?: number;
}

/**
 * The embedded DecisionHistoryStore: per user, the most recent `perUser` records; at most `maxUsers`
 * users. Ids are remembered only while their record is kept, so a dropped record's id may be reused.
 */
export class InMemoryDecisionHistoryStore implements DecisionHistoryStore {
  private readonly byUser = new Map<string, DecisionHistoryRecord[]>();
  private readonly ids = new Set<string>();
  private readonly perUser: number;
  private readonly maxUsers: number;

  constructor(options: InMemoryDecisionHistoryStoreOptions = {}) {
    this.perUser = options.perUser ?? DECISION_HISTORY_MAX_LIMIT;
    this.maxUsers = options.maxUsers ?? 100_000;
  }

  async append(record: DecisionHistoryRecord): Promise<void> {
    checkDecisionHistoryRecord(record);
    if (this.ids.has(record.id))
      throw new PlatformError("CONFLICT", "A decision history record with this id exists");
    const stored = Object.freeze({ ...record });
    const list = this.byUser.get(record.userId) ?? [];
    // Re-insert so the Map's order is least recently written first.
    this.byUser.delete(record.userId);
    this.byUser.set(record.userId, list);
    list.push(stored);
    this.ids.add(record.id);
    while (list.length > this.perUser) this.ids.delete(list.shift()!.id);
    while (this.byUser.size > this.maxUsers) {
      const [oldest, records] = this.byUser.entries().next().value!;
      for (const r of records) this.ids.delete(r.id);
      this.byUser.delete(oldest);
    }
  }

  async recentFor(userId: string, limit: number): Promise<DecisionHistoryRecord[]> {
    checkDecisionHistoryLimit(limit);
    const list = this.byUser.get(userId) ?? [];
    // Stable sort of the appended order, newest `at` first; equal `at`: the later append first.
    return list
      .map((r, i) => ({ r, i }))
      .sort((a, b) => b.r.at - a.r.at || b.i - a.i)
      .slice(0, limit)
      .map(({ r }) => ({ ...r }));
  }
}
