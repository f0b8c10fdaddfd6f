import type { AuditEvent, AuditSink } from "../../kernel/audit-sink.js";

/** Counters of a DecisionAuditQueue: nothing is lost silently. */
export interface DecisionAuditStats {
  /** Events handed to the sink. */
  readonly recorded: number;
  /** Events refused because the queue was full (the sink could not keep up). */
  readonly dropped: number;
  /** Events the sink threw on. */
  readonly failed: number;
  /** Events waiting now. */
  readonly pending: number;
}

/** Options of the DecisionAuditQueue. */
export interface DecisionAuditQueueOptions {
  sink: AuditSink;
  /** Events held at most while the sink catches up (default 10,000). */
  capacity?: number;
  /** Schedules a drain (default setImmediate); tests pass a manual scheduler. */
  schedule?: (drain: () => void) => void;
}

/**
 * Hands authorization audit events to the AuditSink after the decision, never during it: a slow or
 * throwing sink cannot delay or fail a request. The queue is bounded; an event that does not fit is
 * dropped and counted, and a sink failure is counted, so a broken audit trail shows in the stats.
 */
export class DecisionAuditQueue implements AuditSink {
  private readonly queue: AuditEvent[] = [];
  private readonly capacity: number;
  private readonly schedule: (drain: () => void) => void;
  private scheduled = false;
  private counts = { recorded: 0, dropped: 0, failed: 0 };

  constructor(private readonly o: DecisionAuditQueueOptions) {
    this.capacity = o.capacity ?? 10_000;
    this.schedule = o.schedule ?? ((drain) => setImmediate(drain));
  }

  /** Queues an event; O(1), never throws. */
  record(event: AuditEvent): void {
    if (this.queue.length >= this.capacity) {
      this.counts.dropped++;
      return;
    }
    this.queue.push(event);
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => this.drain());
    }
  }

  /**
   * False (and one drop counted) when the queue is full: a caller about to build an event can skip
   * the work under overload. `record` still checks on its own.
   */
  accepts(): boolean {
    if (this.queue.length < this.capacity) return true;
    this.counts.dropped++;
    return false;
  }

  /** The counters so far. */
  stats(): DecisionAuditStats {
    return { ...this.counts, pending: this.queue.length };
  }

  /** Delivers everything queued now (also what the scheduler calls). */
  drain(): void {
    this.scheduled = false;
    const batch = this.queue.splice(0, this.queue.length);
    for (const event of batch) {
      try {
        this.o.sink.record(event);
        this.counts.recorded++;
      } catch {
        this.counts.failed++;
      }
    }
  }
}
