import type { Logger } from "../../kernel/logger.js";
import type { PolicyRepository } from "./policy-repository.js";

/** What a PolicyChangePoller needs. */
export interface PolicyChangePollerOptions {
  repository: Pick<PolicyRepository, "changeCount">;
  /** Reloads this instance's decision points (URL and method managers). */
  reload: () => Promise<void>;
  /** Milliseconds between polls; 0 never polls (one instance, or a host that reloads otherwise). */
  intervalMs: number;
  logger: Logger;
}

/**
 * Keeps this instance's policies in step with other instances on a shared PolicyRepository: every
 * `intervalMs` it reads the store's change count and reloads when the count moved. It works on any
 * deployment (no change streams, no replica set). A failing poll is logged once, and its recovery
 * once; the instance keeps deciding on the policies it has meanwhile.
 */
export class PolicyChangePoller {
  private last: number | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> | undefined;
  private failing = false;

  constructor(private readonly o: PolicyChangePollerOptions) {}

  /** Reads the current count (the policies were just loaded) and starts polling. */
  async start(): Promise<void> {
    this.last = await this.o.repository.changeCount();
    if (this.o.intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.poll(), this.o.intervalMs);
    this.timer.unref?.();
  }

  /** Stops polling and waits for a poll in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One poll: reloads when the store's count differs from the last one seen (one poll at a time). */
  poll(): Promise<void> {
    this.running ??= this.check().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async check(): Promise<void> {
    try {
      const count = await this.o.repository.changeCount();
      if (count !== this.last) {
        await this.o.reload();
        this.last = count;
      }
      if (this.failing) this.o.logger.info("policy change poll recovered", {});
      this.failing = false;
    } catch (error) {
      if (!this.failing) {
        this.o.logger.error("policy change poll failed: deciding on the policies loaded before", {
          error: String(error),
        });
      }
      this.failing = true;
    }
  }
}
