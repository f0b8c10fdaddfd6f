import type { Clock } from "../../kernel/clock.js";

/** Why a model call may not start, or `ok`. */
export type CapVerdict = "ok" | "rate-cap" | "cost-cap";

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * The rate cap (model calls per clock minute) and the cost cap (per UTC day) on model calls,
 * counted in this process only: several instances each get the full caps. A decision is admitted
 * while both counts are under their caps; its calls are counted when it ends (one per prompt sent),
 * so a decision that asks L2 may pass a cap by one call.
 */
export class ModelCallCaps {
  private minute = -1;
  private day = -1;
  private inMinute = 0;
  private inDay = 0;

  constructor(private readonly o: { clock: Clock; perMinute: number; perDay: number }) {}

  /** Whether a decision may call the model now. */
  admit(): CapVerdict {
    this.roll();
    if (this.inDay >= this.o.perDay) return "cost-cap";
    if (this.inMinute >= this.o.perMinute) return "rate-cap";
    return "ok";
  }

  /** Counts `calls` model calls made now. */
  record(calls: number): void {
    this.roll();
    this.inMinute += calls;
    this.inDay += calls;
  }

  /** The counts of the current minute and UTC day. */
  counts(): { minute: number; day: number } {
    this.roll();
    return { minute: this.inMinute, day: this.inDay };
  }

  private roll(): void {
    const now = this.o.clock.now();
    const minute = Math.floor(now / MINUTE);
    const day = Math.floor(now / DAY);
    if (minute !== this.minute) {
      this.minute = minute;
      this.inMinute = 0;
    }
    if (day !== this.day) {
      this.day = day;
      this.inDay = 0;
    }
  }
}
