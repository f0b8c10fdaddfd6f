import { type AuditLog, type AuditQuery, auditQueryLimit, matchesAuditQuery } from "./audit-log.js";
import type { AuditEvent, AuditSink } from "./audit-sink.js";
import type { Clock } from "./clock.js";

/**
 * The embedded AuditSink and AuditLog: a bounded ring buffer. When full it drops the oldest event and
 * counts the drop, so recording is O(1), never blocks and never fails the caller.
 */
export class InMemoryAuditSink implements AuditSink, AuditLog {
  private readonly buffer: (AuditEvent | undefined)[];
  private start = 0;
  private size = 0;
  private droppedCount = 0;

  constructor(
    private readonly capacity: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError("capacity must be a positive integer");
    this.buffer = new Array(capacity);
  }

  record(event: AuditEvent): void {
    try {
      const stored: AuditEvent = { ...event, at: event.at ?? this.clock.now() };
      if (this.size === this.capacity) {
        this.buffer[this.start] = stored;
        this.start = (this.start + 1) % this.capacity;
        this.droppedCount++;
      } else {
        this.buffer[(this.start + this.size) % this.capacity] = stored;
        this.size++;
      }
    } catch {
      // A hostile event (a throwing getter, say) is dropped and counted, never rethrown.
      this.droppedCount++;
    }
  }

  /** The retained events, oldest first. */
  events(): AuditEvent[] {
    const out: AuditEvent[] = [];
    for (let i = 0; i < this.size; i++) out.push(this.buffer[(this.start + i) % this.capacity]!);
    return out;
  }

  /** The most recent `limit` retained events matching every filter, oldest first. */
  async query(query: AuditQuery = {}): Promise<AuditEvent[]> {
    const limit = auditQueryLimit(query);
    const out: AuditEvent[] = [];
    for (let i = this.size - 1; i >= 0 && out.length < limit; i--) {
      const event = this.buffer[(this.start + i) % this.capacity]!;
      if (matchesAuditQuery(event, query)) out.push({ ...event });
    }
    return out.reverse();
  }

  /** How many events were dropped because the buffer was full (or the event was unreadable). */
  get dropped(): number {
    return this.droppedCount;
  }
}
