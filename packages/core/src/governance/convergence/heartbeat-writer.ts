import type { BundleSelector } from "../../decisions/pipeline/bundle-selector.js";
import type { Clock } from "../../kernel/clock.js";
import { PeriodicPoll } from "../../kernel/coordination/periodic-poll.js";
import type { InstanceIdentity } from "../../kernel/instance-identity.js";
import type { Logger } from "../../kernel/logger.js";
import {
  type HeartbeatSelector,
  HEARTBEAT_TEXT_LIMITS,
  type InstanceHeartbeatStore,
  MAX_HEARTBEAT_SERVINGS,
  type ScopeServing,
} from "./instance-heartbeat-store.js";

/** How long an instance may stay silent before its record is pruned. */
export const HEARTBEAT_PRUNE_AFTER_MS = 86_400_000;
/** Prunes at most this often (one `deleteMany` an hour per instance is plenty). */
const PRUNE_EVERY_MS = 3_600_000;

/** Options of the HeartbeatWriter. */
export interface HeartbeatWriterOptions {
  readonly store: InstanceHeartbeatStore;
  readonly identity: InstanceIdentity;
  /** Read at each beat: what this instance serves now. */
  readonly selector: BundleSelector;
  readonly clock: Clock;
  readonly logger: Logger;
  /** `heartbeat.interval`. */
  readonly intervalMs: number;
  /** Which selector this instance decides with (`prompt-bundle.selector`), written in every beat. */
  readonly selectorKind?: HeartbeatSelector | undefined;
}

const FIELDS = ["registryScope", "promptKey", "promptVersion", "bundleHash"] as const;

/** An entry the store would refuse (a blank or oversized field) is left out rather than fail the whole beat. */
function storable(entry: ScopeServing): boolean {
  return FIELDS.every((f) => {
    const v = entry[f];
    return typeof v === "string" && v.length > 0 && v.length <= HEARTBEAT_TEXT_LIMITS[f];
  });
}

/** The selector's answer as a heartbeat's `serving`: storable entries, one per scope, key and source, at most the store's limit. */
export function servingOf(served: readonly ScopeServing[]): ScopeServing[] {
  const seen = new Set<string>();
  const out: ScopeServing[] = [];
  for (const e of served) {
    const key = `${e.registryScope}\u0000${e.promptKey}\u0000${e.source}`;
    if (!storable(e) || seen.has(key)) continue;
    seen.add(key);
    const { registryScope, promptKey, promptVersion, bundleHash, source } = e;
    out.push({ registryScope, promptKey, promptVersion, bundleHash, source });
    if (out.length === MAX_HEARTBEAT_SERVINGS) break;
  }
  return out;
}

/**
 * Writes this instance's heartbeat (its id, start and what its BundleSelector serves) every
 * `heartbeat.interval`, the first at `start()`; prunes the records silent for a day (at most hourly).
 * A failing beat is logged once and its recovery once (PeriodicPoll); it never throws.
 */
export class HeartbeatWriter {
  private readonly poll: PeriodicPoll;
  private prunedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly o: HeartbeatWriterOptions) {
    this.poll = new PeriodicPoll({
      intervalMs: o.intervalMs,
      run: () => this.beatOnce(),
      logger: o.logger,
      failure:
        "instance heartbeat failed: the convergence report will show this instance as silent until it beats",
      recovered: "instance heartbeat recovered",
    });
  }

  /** Beats now, then every interval. */
  start(): Promise<void> {
    this.poll.start();
    return this.poll.poll();
  }

  /** One beat through the loop, as the timer runs it: a failure is logged (once in a row), never thrown. */
  beatNow(): Promise<void> {
    return this.poll.poll();
  }

  /** Stops beating (waits for a beat in progress). */
  stop(): Promise<void> {
    return this.poll.stop();
  }

  /** One beat (and a prune when the last is an hour old); rejects on a store failure. */
  async beatOnce(): Promise<void> {
    const at = this.o.clock.now();
    await this.o.store.beat({
      instanceId: this.o.identity.instanceId,
      startedAt: this.o.identity.startedAt,
      at,
      serving: servingOf(this.o.selector.serving()),
      ...(this.o.selectorKind === undefined ? {} : { selector: this.o.selectorKind }),
    });
    if (at - this.prunedAt < PRUNE_EVERY_MS) return;
    await this.o.store.prune(Math.max(0, at - HEARTBEAT_PRUNE_AFTER_MS));
    this.prunedAt = at;
  }
}
