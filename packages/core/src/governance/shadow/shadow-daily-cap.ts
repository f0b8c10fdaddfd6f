import type { Clock } from "../../kernel/clock.js";

const DAY_MS = 86_400_000;

/** The cap's answer to one run: admitted (counted), or refused by the day's cap or the requester's share. */
export type ShadowAdmission = "admitted" | "cap-spent" | "requester-share-spent";

/** What the daily cap is built from. */
export interface ShadowDailyCapOptions {
  readonly clock: Clock;
  /** `shadow.daily-call-cap`: runs admitted per UTC day on this instance. */
  readonly cap: number;
  /**
   * `shadow.requester-share-percent`: the share of `cap` one requester may take per UTC day (at least
   * one run while the cap allows any). Absent: 100 (no requester limit).
   */
  readonly requesterSharePercent?: number | undefined;
}

/**
 * The shadow runs admitted per UTC day on this instance (the spec's shadow.daily-call-cap), and per
 * requester a share of it, so one requester cannot spend the day's sample alone. A run is counted
 * when it is admitted, before its model call, so a run that later fails or times out still spent its
 * place; the counts start again at 00:00 UTC by the Clock port. The per-requester counts live for
 * the day only and number at most the runs admitted (the cap bounds them).
 */
export class ShadowDailyCap {
  private day = Number.NaN;
  private used = 0;
  private readonly byRequester = new Map<string, number>();
  private readonly perRequester: number;

  constructor(private readonly o: ShadowDailyCapOptions) {
    const share = o.requesterSharePercent ?? 100;
    this.perRequester = Math.max(1, Math.floor((o.cap * share) / 100));
  }

  /**
   * Admits one run of `requester` (counted) when today's cap and the requester's share of it are not
   * spent; which of them refused it otherwise.
   */
  admit(requester: string): ShadowAdmission {
    this.roll();
    if (this.used >= this.o.cap) return "cap-spent";
    const theirs = this.byRequester.get(requester) ?? 0;
    if (theirs >= this.perRequester) return "requester-share-spent";
    this.byRequester.set(requester, theirs + 1);
    this.used++;
    return "admitted";
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
    this.byRequester.clear();
  }
}
