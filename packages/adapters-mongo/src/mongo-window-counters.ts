import { type Collection, MongoBulkWriteError } from "mongodb";
import { DUPLICATE_KEY } from "./mongo-errors.js";

/**
 * A fixed-window counter (login throttle, OTT generation limiter): `_id` is the hashed storage key.
 * The window opens at the counter's first count and ends at `windowEnd`; an ended window is a counter
 * that no longer exists, whatever the TTL monitor has done yet.
 */
export interface WindowCounterDocument {
  _id: string;
  count: number;
  /** End of the window: judged against the Clock on every read, and the TTL index's date. */
  windowEnd: Date;
  /** Login-throttle pair counters only: the account key, so an unlock finds every address's counter. */
  account?: string;
}

/** One counter to count on: its id, an optional limit it must stay under, the owner tag of a new window. */
export interface WindowIncrement {
  id: string;
  /** Count only while `count < below` (the limit); absent: always count. */
  below?: number;
  account?: string;
}

/** The TTL index every window-counter collection carries. */
export const WINDOW_END_TTL_INDEX = { key: { windowEnd: 1 }, name: "windowEnd_ttl", expireAfterSeconds: 0 };

/**
 * Counts one on each counter in ONE command: an unordered bulk of upserts, each `$inc` filtered on a
 * live window (and `count < below`), `$setOnInsert` opening a new window at `now`. A counter whose
 * document exists but does not match (window ended, limit reached, or a concurrent insert won) makes
 * its upsert collide on `_id` (11000) and is left uncounted; the others count. Returns the ids that
 * did not count.
 */
export async function incrementWindows(
  counters: Collection<WindowCounterDocument>,
  increments: readonly WindowIncrement[],
  now: number,
  windowMs: number,
): Promise<string[]> {
  const live = new Date(now);
  const ops = increments.map((inc) => ({
    updateOne: {
      filter: {
        _id: inc.id,
        windowEnd: { $gt: live },
        ...(inc.below === undefined ? {} : { count: { $lt: inc.below } }),
      },
      update: {
        $inc: { count: 1 },
        $setOnInsert: {
          windowEnd: new Date(now + windowMs),
          ...(inc.account === undefined ? {} : { account: inc.account }),
        },
      },
      upsert: true,
    },
  }));
  try {
    await counters.bulkWrite(ops, { ordered: false });
    return [];
  } catch (e) {
    if (!(e instanceof MongoBulkWriteError)) throw e;
    const errors = Array.isArray(e.writeErrors) ? e.writeErrors : [e.writeErrors];
    if (errors.length === 0 || errors.some((w) => w.code !== DUPLICATE_KEY)) throw e;
    return errors.map((w) => increments[w.index]!.id);
  }
}

/** Deletes the counters among `ids` whose window has ended (one command), so they can open anew. */
export async function dropEndedWindows(
  counters: Collection<WindowCounterDocument>,
  ids: readonly string[],
  now: number,
): Promise<void> {
  await counters.deleteMany({ _id: { $in: [...ids] }, windowEnd: { $lte: new Date(now) } });
}

/** The live counters among `ids`, by id (one command). */
export async function liveWindows(
  counters: Collection<WindowCounterDocument>,
  ids: readonly string[],
  now: number,
): Promise<Map<string, WindowCounterDocument>> {
  const docs = await counters.find({ _id: { $in: [...ids] }, windowEnd: { $gt: new Date(now) } }).toArray();
  return new Map(docs.map((d) => [d._id, d]));
}

/**
 * Milliseconds until `counter` stops blocking at `max`, 0 when it does not block; clamped to one
 * window, so a clock set backwards never asks for a longer wait (as the in-memory counters).
 */
export function blockedFor(
  counter: WindowCounterDocument | undefined,
  max: number,
  now: number,
  windowMs: number,
): number {
  if (!counter || counter.count < max) return 0;
  return Math.max(0, Math.min(windowMs, counter.windowEnd.getTime() - now));
}

/** Attempts of a count before giving up: each retry follows a lost insert race or an ended window. */
export const MAX_COUNT_ATTEMPTS = 5;
