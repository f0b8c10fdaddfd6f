import type { Clock } from "../../kernel/clock.js";
import type { ChangeCounters } from "../../kernel/coordination/change-counters.js";
import { PeriodicPoll } from "../../kernel/coordination/periodic-poll.js";
import type { EventBus } from "../../kernel/event-bus.js";
import type { Logger } from "../../kernel/logger.js";
import { RELEASES_CHANGED_EVENT } from "../governance-audit.js";
import type { ReleaseRegistry, ReleaseRow, ReleaseScopeHead } from "../registry/release-registry.js";
import { RELEASE_CACHE_TOPIC } from "../release-governance.js";
import type { ReleaseSnapshot, ReleaseSnapshots } from "./release-snapshots.js";

/** The least time between two reads `current()` starts on demand. */
const ON_DEMAND_SPACING_MS = 1_000;

/** What a ReleaseCache reads, when, and whom it tells. */
export interface ReleaseCacheOptions {
  readonly registry: Pick<ReleaseRegistry, "heads">;
  readonly counters: Pick<ChangeCounters, "read">;
  /** This instance's bus: RELEASES_CHANGED_EVENT refreshes at once. */
  readonly events: Pick<EventBus, "on">;
  readonly clock: Clock;
  readonly logger: Logger;
  /** `registry.cache-ttl`: no snapshot older than this is served (1 s to 60 s). */
  readonly ttlMs: number;
  /** `registry.poll-interval`: how often the RELEASE_CACHE_TOPIC counter is read; 0 never. */
  readonly pollIntervalMs: number;
  /**
   * Runs after each successful read, before the snapshot is served (the resource-family index
   * refreshes here). Must not reject; a rejection is ignored.
   */
  readonly onRead?: ((snapshot: ReleaseSnapshot) => Promise<void>) | undefined;
}

/**
 * The run-time cache of the release registry (ReleaseSnapshots): every head in one snapshot, read in
 * the background, never on a decision's path. A timer reads again every half TTL, so a snapshot in
 * service is at most half a TTL (plus one read) old while the registry answers; `current()` serves
 * nothing older than the TTL, so after reads failed for longer than that it answers undefined (the
 * selector runs the build default) instead of a stale release. A change on this instance
 * (RELEASES_CHANGED_EVENT) reads at once; a change on another instance moves the
 * RELEASE_CACHE_TOPIC counter, read every poll interval. One read at a time: a refresh asked for
 * while one runs is queued once behind it (it may have started before the change was written), so
 * any number of triggers cost at most two reads. A read failure is logged once, its recovery once.
 */
export class ReleaseCache implements ReleaseSnapshots {
  private snapshot: ReleaseSnapshot | undefined;
  private reading: Promise<void> | undefined;
  private again = false;
  private failing = false;
  private seenCount: number | undefined;
  private started = false;
  private attemptedAt = Number.NEGATIVE_INFINITY;
  private readonly refreshLoop: PeriodicPoll;
  private readonly changeLoop: PeriodicPoll;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly o: ReleaseCacheOptions) {
    this.refreshLoop = new PeriodicPoll({
      intervalMs: Math.max(1, Math.floor(o.ttlMs / 2)),
      run: () => this.refreshIfDue(),
      logger: o.logger,
      failure: "release cache refresh failed",
      recovered: "release cache refresh recovered",
    });
    this.changeLoop = new PeriodicPoll({
      intervalMs: o.pollIntervalMs,
      run: () => this.pollChanges(),
      logger: o.logger,
      failure: "release change poll failed: the release cache expires on its own meanwhile",
      recovered: "release change poll recovered",
    });
  }

  /** The newest snapshot no older than the TTL, or undefined (never read, or unreadable past the TTL). */
  current(): ReleaseSnapshot | undefined {
    const snapshot = this.snapshot;
    if (snapshot === undefined) return undefined;
    const age = this.o.clock.now() - snapshot.readAt;
    // On demand too, in case a timer ran late (the decision never waits for it); at most one attempt
    // a second, so decisions do not hammer a registry that fails fast.
    if (
      this.started &&
      age >= this.o.ttlMs / 2 &&
      this.reading === undefined &&
      this.o.clock.now() - this.attemptedAt >= ON_DEMAND_SPACING_MS
    )
      void this.refresh();
    return age > this.o.ttlMs ? undefined : snapshot;
  }

  /**
   * Starts the first read (not awaited: start-up never waits for the registry), the refresh timer,
   * the change poll and the subscription to this instance's change event.
   */
  start(): void {
    this.started = true;
    this.unsubscribe ??= this.o.events.on(RELEASES_CHANGED_EVENT, () => {
      void this.refresh();
    });
    // With a poll, the counter's baseline is read before the first read of the heads, so a change
    // between the two cannot be missed; the first poll reads the heads.
    if (this.o.pollIntervalMs > 0) void this.changeLoop.poll();
    else void this.refresh();
    this.refreshLoop.start();
    this.changeLoop.start();
  }

  /** Stops the timers and the subscription; waits for a read in progress. */
  async stop(): Promise<void> {
    this.started = false;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await Promise.all([this.refreshLoop.stop(), this.changeLoop.stop()]);
    await this.reading;
  }

  /** Reads every head now (or queues one read behind the read in progress). Never rejects. */
  refresh(): Promise<void> {
    if (this.reading !== undefined) {
      this.again = true;
      return this.reading;
    }
    this.reading = this.readLoop().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  /** One read of the RELEASE_CACHE_TOPIC counter: reads the heads when it moved (or on the first poll). */
  async pollChanges(): Promise<void> {
    const counts = await this.o.counters.read([RELEASE_CACHE_TOPIC]);
    const count = counts[RELEASE_CACHE_TOPIC] ?? 0;
    const moved = this.seenCount !== count;
    this.seenCount = count;
    if (moved) await this.refresh();
  }

  private async refreshIfDue(): Promise<void> {
    const snapshot = this.snapshot;
    if (snapshot === undefined || this.o.clock.now() - snapshot.readAt >= this.o.ttlMs / 2)
      await this.refresh();
  }

  private async readLoop(): Promise<void> {
    do {
      this.again = false;
      await this.readOnce();
    } while (this.again);
  }

  private async readOnce(): Promise<void> {
    let heads: ReleaseScopeHead[];
    this.attemptedAt = this.o.clock.now();
    try {
      heads = await this.o.registry.heads();
    } catch (error) {
      if (!this.failing)
        this.o.logger.error(
          "release registry unreadable: the last snapshot serves until the cache TTL, then the build default",
          { error: String(error), ttlMs: this.o.ttlMs },
        );
      this.failing = true;
      return;
    }
    const scopes = new Map<string, readonly ReleaseRow[]>();
    for (const head of heads) scopes.set(head.registryScope, head.releases);
    const snapshot: ReleaseSnapshot = Object.freeze({ readAt: this.o.clock.now(), scopes });
    await this.o.onRead?.(snapshot).catch(() => undefined);
    this.snapshot = snapshot;
    if (this.failing) this.o.logger.info("release registry readable again", { scopes: scopes.size });
    this.failing = false;
  }
}
