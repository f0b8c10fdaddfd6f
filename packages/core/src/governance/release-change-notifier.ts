import type { ChangeCounters } from "../kernel/coordination/change-counters.js";
import type { EventBus } from "../kernel/event-bus.js";
import type { Logger } from "../kernel/logger.js";
import { RELEASES_CHANGED_EVENT, type ReleasesChangedPayload } from "./governance-audit.js";
import { RELEASE_CACHE_TOPIC } from "./release-governance.js";

/** What a ReleaseChangeNotifier tells. */
export interface ReleaseChangeNotifierOptions {
  readonly counters: ChangeCounters;
  readonly events: EventBus;
  readonly logger: Logger;
}

/**
 * Tells the run-time caches that a scope changed, after the change is written: bumps the
 * RELEASE_CACHE_TOPIC counter (every instance polls it) and publishes RELEASES_CHANGED_EVENT (this
 * instance at once). A failure is logged and never undoes or fails the change: the caches expire
 * within their bound anyway.
 */
export class ReleaseChangeNotifier {
  constructor(private readonly o: ReleaseChangeNotifierOptions) {}

  /** Never rejects. */
  async changed(registryScope: string, kind: string): Promise<void> {
    try {
      await this.o.counters.bump(RELEASE_CACHE_TOPIC);
    } catch (error) {
      this.o.logger.error(
        "release cache invalidation failed: other instances see the change when their cache expires",
        {
          registryScope,
          error: String(error),
        },
      );
    }
    const payload: ReleasesChangedPayload = { registryScope, kind };
    try {
      await this.o.events.publish(RELEASES_CHANGED_EVENT, payload);
    } catch (error) {
      this.o.logger.error("release change event failed", { registryScope, error: String(error) });
    }
  }
}
