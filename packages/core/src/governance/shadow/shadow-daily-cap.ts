import type { Clock } from "../../kernel/clock.js";

const DAY_MS = 86_400_000;

/**
 * The shadow runs admitted per UTC day on this instance (the spec's shadow.daily-call-cap). A run
 * is counted when it is admitted, before its model call, so a run that later fails or times out
 * still spent its place; the count starts again at 00:00 UTC by the Clock port.
 */
export class ShadowDailyCap {
  private day = Number.NaN;
  private used = 0;

  constructor(private readonly o: { readonly clock: Clock; readonly cap: number }) {}

  /** Admits one run (counted) when today's cap is not spent; false otherwise. */
  admit(): boolean {
    this.roll();
    if (this.used >= this.o.cap) return false;
    this.used++;
    return true;
  }

  /** Runs admitted so far in the current UTC day. */
  usedToday(): number {
    this.roll();
    return this.used;
  }

  private roll(): void {
    const day = Math.floor(this.o.clock.now() / DAY_MS);
    if (day === this.day) return;
    this.day = day;
    this.used = 0;
  }
}
