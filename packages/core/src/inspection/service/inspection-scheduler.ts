import type { Logger } from "../../kernel/logger.js";
import { PeriodicPoll } from "../../kernel/coordination/periodic-poll.js";
import type { PromptInspectionSettings } from "../inspection.properties.js";
import type { InspectionRound } from "./inspection-round.js";

/**
 * Runs the automatic round on timers (unref'd: they never keep a process alive): the first after
 * `initial-delay`, then every `interval`, one at a time; a failing round is logged once until one
 * succeeds. The round runs on the scheduler's timer, never on a decision's path.
 */
export class InspectionScheduler {
  private readonly poll: PeriodicPoll;
  private readonly initialDelayMs: number;
  private first: ReturnType<typeof setTimeout> | undefined;

  constructor(o: { round: InspectionRound; settings: PromptInspectionSettings; logger: Logger }) {
    this.poll = new PeriodicPoll({
      intervalMs: o.settings.intervalMs,
      run: async () => void (await o.round.runOnce()),
      logger: o.logger,
      failure: "prompt inspection round failed",
      recovered: "prompt inspection round recovered",
    });
    this.initialDelayMs = o.settings.initialDelayMs;
  }

  /** Starts the first round's timer; the interval starts with it. */
  start(): void {
    if (this.first) return;
    this.first = setTimeout(() => {
      void this.poll.poll();
      this.poll.start();
    }, this.initialDelayMs);
    this.first.unref?.();
  }

  /** Stops the timers and waits for a round in progress. */
  async stop(): Promise<void> {
    if (this.first) clearTimeout(this.first);
    this.first = undefined;
    await this.poll.stop();
  }
}
