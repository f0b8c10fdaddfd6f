import type { InjectionToken } from "tsyringe";
import type { Logger } from "../logger.js";
import type { ChangeCounters } from "./change-counters.js";
import { PeriodicPoll } from "./periodic-poll.js";

/** What a ChangePoller needs. */
export interface ChangePollerOptions {
  counters: ChangeCounters;
  /** Milliseconds between polls; 0 never polls (one instance). */
  intervalMs: number;
  logger: Logger;
}

/** Called when a watched topic's counter moved since the last poll (another instance changed something). */
export type ChangeListener = () => void;

/**
 * One poll of the ChangeCounters for every in-process cache of shared state: every `intervalMs` it
 * reads the watched topics in one call and runs the listeners of each topic whose counter moved. A
 * topic watched after the first poll gets its baseline at the next one (it fires only on a later move),
 * so the order in which features start does not matter. A failing poll is logged once, and its
 * recovery once; caches keep their own expiry meanwhile. Writers on this instance drop their own cache
 * at once; the poll is for the others.
 */
export class ChangePoller {
  private readonly listeners = new Map<string, ChangeListener[]>();
  private readonly seen = new Map<string, number>();
  private readonly loop: PeriodicPoll;

  constructor(private readonly o: ChangePollerOptions) {
    this.loop = new PeriodicPoll({
      intervalMs: o.intervalMs,
      run: () => this.check(),
      logger: o.logger,
      failure: "change poll failed: caches of shared state expire on their own meanwhile",
      recovered: "change poll recovered",
    });
  }

  /** Runs `listener` whenever `topic`'s counter moves; returns the function that stops it. */
  watch(topic: string, listener: ChangeListener): () => void {
    this.listeners.set(topic, [...(this.listeners.get(topic) ?? []), listener]);
    return () => {
      this.listeners.set(
        topic,
        (this.listeners.get(topic) ?? []).filter((l) => l !== listener),
      );
    };
  }

  /** Reads the baselines and starts polling (no timer when `intervalMs` is 0). */
  async start(): Promise<void> {
    await this.loop.poll();
    this.loop.start();
  }

  /** Stops polling and waits for a poll in progress. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One poll (one at a time): fires the listeners of every moved topic. */
  poll(): Promise<void> {
    return this.loop.poll();
  }

  private async check(): Promise<void> {
    const topics = [...this.listeners.keys()];
    if (topics.length === 0) return;
    const counts = await this.o.counters.read(topics);
    for (const topic of topics) this.compare(topic, counts[topic] ?? 0);
  }

  private compare(topic: string, count: number): void {
    const last = this.seen.get(topic);
    this.seen.set(topic, count);
    if (last === undefined || last === count) return;
    for (const listener of this.listeners.get(topic) ?? []) {
      try {
        listener();
      } catch (error) {
        this.o.logger.error("change listener failed", { topic, error: String(error) });
      }
    }
  }
}

/** DI token of the platform's one ChangePoller (the kernel starts and stops it). */
export const ChangePollerToken: InjectionToken<ChangePoller> = Symbol.for("platform.kernel.ChangePoller");
