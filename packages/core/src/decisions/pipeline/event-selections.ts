import type { BundleSelection } from "../engine/bundle-selection.js";

/** Events per generation: between this many and twice this many of the latest are remembered. */
const GENERATION_SIZE = 5_000;

/**
 * The selections a selector fixed for the latest events (an event's first selection is its bundle
 * for every layer). Two generations, the older dropped whole when the newer fills, so forgetting
 * costs nothing per event: dropping a Map's oldest key one at a time walks over the holes earlier
 * deletes left (about 20 µs a call once full).
 */
export class EventSelections {
  private latest = new Map<string, BundleSelection>();
  private before = new Map<string, BundleSelection>();

  /** The selection fixed for `eventId`, if it is still remembered. */
  get(eventId: string): BundleSelection | undefined {
    return this.latest.get(eventId) ?? this.before.get(eventId);
  }

  /** Remembers `selection` as `eventId`'s. */
  remember(eventId: string, selection: BundleSelection): void {
    if (this.latest.size >= GENERATION_SIZE) {
      this.before = this.latest;
      this.latest = new Map();
    }
    this.latest.set(eventId, selection);
  }
}
