import type { Logger } from "../logger.js";

/** What a PeriodicPoll runs and says. */
export interface PeriodicPollOptions {
  /** Milliseconds between polls; 0 never polls on a timer (`poll()` still runs one). */
  intervalMs: number;
  /** One poll; a rejection is logged (once until it recovers), never thrown. */
  run: () => Promise<void>;
  logger: Logger;
  /** The log line of the first failure in a row (the error is attached). */
  failure: string;
  /** The log line of the first success after failures. */
  recovered: string;
}

/**
 * A poll on a timer (unref'd, so it never keeps a process alive), one at a time: `poll()` while one
 * runs returns that one. A failing poll is logged once and its recovery once, so a store outage does
 * not flood the log. The loop the policy and change-counter pollers share.
 */
export class PeriodicPoll {
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> | undefined;
  private failing = false;

  constructor(private readonly o: PeriodicPollOptions) {}

  /** Starts the timer (nothing when `intervalMs` is 0 or it runs already). */
  start(): void {
    if (this.o.intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.poll(), this.o.intervalMs);
    this.timer.unref?.();
  }

  /** Stops the timer and waits for a poll in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One poll (or the one in progress). Never rejects. */
  poll(): Promise<void> {
    this.running ??= this.check().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async check(): Promise<void> {
    try {
      await this.o.run();
      if (this.failing) this.o.logger.info(this.o.recovered, {});
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.o.logger.error(this.o.failure, { error: String(error) });
      this.failing = true;
    }
  }
}
