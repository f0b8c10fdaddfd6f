import { PlatformError } from "../platform-error.js";
import type { ChangeCounters } from "./change-counters.js";

/** The embedded ChangeCounters: one process, one Map (one instance has nobody else to tell). */
export class InMemoryChangeCounters implements ChangeCounters {
  private readonly counters = new Map<string, number>();

  async bump(topic: string): Promise<number> {
    checkTopic(topic);
    const next = (this.counters.get(topic) ?? 0) + 1;
    this.counters.set(topic, next);
    return next;
  }

  async read(topics: readonly string[]): Promise<Record<string, number>> {
    // fromEntries defines own keys: an assignment to `out["__proto__"]` would set no entry at all.
    return Object.fromEntries(topics.map((topic) => [topic, this.counters.get(topic) ?? 0]));
  }
}

/** The topic rule every ChangeCounters adapter applies (VALIDATION_FAILED unless 1..128 characters). */
export function checkTopic(topic: string): void {
  if (typeof topic !== "string" || topic === "" || topic.length > 128) {
    throw new PlatformError("VALIDATION_FAILED", "A change counter's topic must be 1..128 characters");
  }
}
