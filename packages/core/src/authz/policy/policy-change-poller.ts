import { PeriodicPoll } from "../../kernel/coordination/periodic-poll.js";
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
  private readonly loop: PeriodicPoll;

  constructor(private readonly o: PolicyChangePollerOptions) {
    this.loop = new PeriodicPoll({
      intervalMs: o.intervalMs,
      run: () => this.check(),
      logger: o.logger,
      failure: "policy change poll failed: deciding on the policies loaded before",
      recovered: "policy change poll recovered",
    });
  }

  /** Reads the current count (the policies were just loaded) and starts polling. */
  async start(): Promise<void> {
    this.last = await this.o.repository.changeCount();
    this.loop.start();
  }

  /** Stops polling and waits for a poll in progress. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One poll: reloads when the store's count differs from the last one seen (one poll at a time). */
  poll(): Promise<void> {
    return this.loop.poll();
  }

  private async check(): Promise<void> {
    const count = await this.o.repository.changeCount();
    if (count !== this.last) {
      await this.o.reload();
      this.last = count;
    }
  }
}
