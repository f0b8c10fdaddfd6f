import type { Clock } from "../../kernel/clock.js";
import type { DecisionEventSeverity } from "./decision-event.js";
import type { DecisionPipelineSettings } from "./decision-pipeline.properties.js";

/** Why a model call may not start, or `ok`. */
export type CapVerdict = "ok" | "rate-cap" | "cost-cap" | "user-cap";

/** The caps, from the `platform.security.decision.calls-*` properties. */
export interface ModelCallCapsOptions {
  readonly clock: Clock;
  /** Model calls per clock minute (every event). */
  readonly perMinute: number;
  /** Model calls per UTC day (every event). */
  readonly perDay: number;
  /** Model calls per clock minute one user's events may use. */
  readonly perUserPerMinute: number;
  /** Share of both caps, in [0, 1], that only high-severity events may use. */
  readonly highSeverityReserve: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * The rate cap (model calls per clock minute), the cost cap (per UTC day) and the per-user cap
 * (per clock minute), counted in this process only: several instances each get the full caps.
 * Routine events (sign-ins, sampled requests) stop at the caps less the high-severity reserve, so
 * floods of sign-ins cannot starve the decisions that matter most; high-severity events may use the
 * whole cap, but one user no more than the per-user cap, so one account cannot spend the reserve.
 * What a cap refuses is decided in process by the pipeline's fallback maker, never dropped. `admit` counts one call at once (two decisions racing
 * for the last call cannot both get it); `settle` counts the rest when the decision ends, so a
 * decision that asks L2 may pass a cap by its extra calls.
 */
export class ModelCallCaps {
  private minute = -1;
  private day = -1;
  private inMinute = 0;
  private inDay = 0;
  private readonly perUser = new Map<string, number>();

  constructor(private readonly o: ModelCallCapsOptions) {}

  /** The caps the pipeline's settings name. */
  static of(settings: DecisionPipelineSettings, clock: Clock): ModelCallCaps {
    return new ModelCallCaps({
      clock,
      perMinute: settings.callsPerMinute,
      perDay: settings.callsPerDay,
      perUserPerMinute: settings.callsPerUserPerMinute,
      highSeverityReserve: settings.highSeverityReserve,
    });
  }

  /** Whether a decision about `userId` may call the model now; on `ok` its first call is counted. */
  admit(userId: string, severity: DecisionEventSeverity): CapVerdict {
    this.roll();
    const share = severity === "high" ? 1 : 1 - this.o.highSeverityReserve;
    if (this.inDay >= Math.floor(this.o.perDay * share)) return "cost-cap";
    if (this.inMinute >= Math.floor(this.o.perMinute * share)) return "rate-cap";
    const own = this.perUser.get(userId) ?? 0;
    if (own >= this.o.perUserPerMinute) return "user-cap";
    this.count(userId, 1);
    return "ok";
  }

  /** Counts the calls an admitted decision made beyond the one `admit` counted. */
  settle(userId: string, calls: number): void {
    this.roll();
    if (calls > 1) this.count(userId, calls - 1);
  }

  /** The counts of the current minute and UTC day. */
  counts(): { minute: number; day: number } {
    this.roll();
    return { minute: this.inMinute, day: this.inDay };
  }

  private count(userId: string, calls: number): void {
    this.inMinute += calls;
    this.inDay += calls;
    this.perUser.set(userId, (this.perUser.get(userId) ?? 0) + calls);
  }

  private roll(): void {
    const now = this.o.clock.now();
    const minute = Math.floor(now / MINUTE);
    const day = Math.floor(now / DAY);
    if (minute !== this.minute) {
      this.minute = minute;
      this.inMinute = 0;
      this.perUser.clear();
    }
    if (day !== this.day) {
      this.day = day;
      this.inDay = 0;
    }
  }
}
