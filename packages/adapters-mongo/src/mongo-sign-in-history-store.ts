import { networkOf, parseDeviceId, SIGN_IN_HISTORY_LIMITS } from "@keyward/core/adapter-kit";
import type {
  Clock,
  SignInFailure,
  SignInHistory,
  SignInHistoryStore,
  SignInSuccess,
} from "@keyward/core/ports";
import type { AnyBulkWriteOperation, Collection, Db } from "mongodb";

/** The `sign_in_history` collection's document: one per user, `_id` = the user id. */
export interface SignInHistoryDocument {
  _id: string;
  /** Device ids, most recent first (at most `maxDevices`; see the store on duplicates). */
  devices?: string[];
  /** Networks (`networkOf`), most recent first (at most `maxNetworks`). */
  networks?: string[];
  /** Completed sign-ins per UTC hour, keyed `h00`…`h23`. */
  hours?: Record<string, number>;
  /** Completed sign-ins in total. */
  count?: number;
  /** Times (epoch ms) of the last `maxFailuresPerUser` failed primary sign-ins. */
  failures?: number[];
}

/** Options of the MongoSignInHistoryStore. */
export interface MongoSignInHistoryStoreOptions {
  db: Db;
  clock: Clock;
  /** Collection name (default `sign_in_history`). */
  collection?: string;
}

/**
 * SignInHistoryStore on MongoDB, one document per user, so every instance scores a sign-in on the
 * same past. The limits are the in-memory default's (`SIGN_IN_HISTORY_LIMITS`).
 * - `historyOf` is one `findOne`; failures count when within the window on the Clock.
 * - `recordFailure` is one `$push` upsert that keeps the last `maxFailuresPerUser` times (`$slice`):
 *   concurrent failures each count.
 * - `recordSuccess` is one `update` command with two statements: `$pull` the device and network, then
 *   `$push` them at the front (`$position: 0`, `$slice`), `$inc` the count and the hour, `$unset` the
 *   failures (one upsert). MongoDB updates one document atomically per statement, not per command, so
 *   two concurrent sign-ins from the same device can both push it: reads drop the duplicate, and
 *   the next sign-in from that device pulls every copy. Meanwhile the list may hold one device fewer.
 * No TTL: a user's history is what the risk analysis learns from; the document stays bounded (20
 * devices, 20 networks, 24 hour counters, 20 failure times). Users are not capped (the in-memory
 * default forgets the least recently written past 100 000).
 */
export class MongoSignInHistoryStore implements SignInHistoryStore {
  private readonly history: Collection<SignInHistoryDocument>;
  private readonly clock: Clock;

  constructor(options: MongoSignInHistoryStoreOptions) {
    this.history = options.db.collection<SignInHistoryDocument>(options.collection ?? "sign_in_history");
    this.clock = options.clock;
  }

  /** Nothing to create: every read and write goes by `_id`. */
  async ensureIndexes(): Promise<void> {}

  async historyOf(userId: string): Promise<SignInHistory> {
    const doc = await this.history.findOne({ _id: userId });
    const since = this.clock.now() - SIGN_IN_HISTORY_LIMITS.failureWindowMs;
    const hours = Object.entries(doc?.hours ?? {})
      .filter(([, n]) => n > 0)
      .map(([key]) => Number(key.slice(1)))
      .sort((a, b) => a - b);
    return Object.freeze({
      knownDevices: Object.freeze(distinct(doc?.devices, SIGN_IN_HISTORY_LIMITS.maxDevices)),
      knownNetworks: Object.freeze(distinct(doc?.networks, SIGN_IN_HISTORY_LIMITS.maxNetworks)),
      recentFailures: (doc?.failures ?? []).filter((at) => at > since).length,
      usualHours: Object.freeze(hours),
      signInCount: doc?.count ?? 0,
    });
  }

  async recordSuccess(success: SignInSuccess): Promise<void> {
    const device = parseDeviceId(success.deviceId);
    const network = networkOf(success.remoteAddress);
    const hour = new Date(success.at).getUTCHours();
    const pull: Record<string, string> = {};
    const push: Record<string, { $each: string[]; $position: 0; $slice: number }> = {};
    if (device !== undefined) {
      pull.devices = device;
      push.devices = { $each: [device], $position: 0, $slice: SIGN_IN_HISTORY_LIMITS.maxDevices };
    }
    if (network !== undefined) {
      pull.networks = network;
      push.networks = { $each: [network], $position: 0, $slice: SIGN_IN_HISTORY_LIMITS.maxNetworks };
    }
    const inc: Record<string, number> = { count: 1 };
    if (Number.isInteger(hour)) inc[`hours.h${String(hour).padStart(2, "0")}`] = 1;
    const operations: AnyBulkWriteOperation<SignInHistoryDocument>[] = [];
    if (Object.keys(pull).length > 0) {
      operations.push({ updateOne: { filter: { _id: success.userId }, update: { $pull: pull } } });
    }
    operations.push({
      updateOne: {
        filter: { _id: success.userId },
        // The user proved who they are; earlier typos should not weigh on the next sign-in.
        update: {
          ...(Object.keys(push).length > 0 ? { $push: push } : {}),
          $inc: inc,
          $unset: { failures: "" },
        },
        upsert: true,
      },
    });
    await this.history.bulkWrite(operations, { ordered: true });
  }

  async recordFailure(failure: SignInFailure): Promise<void> {
    await this.history.updateOne(
      { _id: failure.userId },
      { $push: { failures: { $each: [failure.at], $slice: -SIGN_IN_HISTORY_LIMITS.maxFailuresPerUser } } },
      { upsert: true },
    );
  }
}

// The first `max` distinct values, in order (a race may have pushed one value twice).
function distinct(values: readonly string[] | undefined, max: number): string[] {
  return [...new Set(values ?? [])].slice(0, max);
}
