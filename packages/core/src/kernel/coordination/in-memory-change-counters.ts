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
    const out: Record<string, number> = {};
    for (const topic of topics) out[topic] = this.counters.get(topic) ?? 0;
    return out;
  }
}

/** The topic rule every ChangeCounters adapter applies (VALIDATION_FAILED for an empty topic). */
export function checkTopic(topic: string): void {
  if (typeof topic !== "string" || topic === "" || topic.length > 128) {
    throw new PlatformError("VALIDATION_FAILED", "A change counter's topic must be 1..128 characters");
  }
}
