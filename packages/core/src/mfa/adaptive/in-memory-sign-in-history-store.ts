import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { parseDeviceId } from "../decision/mfa-policy-context.js";
import { EMPTY_SIGN_IN_HISTORY, networkOf, type SignInHistory } from "./sign-in-history.js";
import {
  SIGN_IN_HISTORY_LIMITS,
  type SignInFailure,
  type SignInHistoryStore,
  type SignInSuccess,
} from "./sign-in-history-store.js";

/** Options of InMemorySignInHistoryStore; every limit defaults to `SIGN_IN_HISTORY_LIMITS` or below. */
export interface InMemorySignInHistoryStoreOptions {
  /** Reads "now" for the failure window. */
  readonly clock: Clock;
  /** Users remembered (separately for successes and for failures); the least recently written goes first. Default 100 000. */
  readonly maxUsers?: number;
}

interface Successes {
  devices: string[];
  networks: string[];
  /** Sign-ins per UTC hour, 24 counters. */
  hours: number[];
  count: number;
}

/** The default user bound: about 100 000 × (20 devices + 20 networks) strings, some tens of MB. */
export const IN_MEMORY_SIGN_IN_HISTORY_MAX_USERS = 100_000;

/**
 * The embedded SignInHistoryStore: one process, lost on restart, bounded. Successes and failures live
 * in two maps, each capped at `maxUsers` and evicting the user written least recently, so a flood of
 * failures against made-up or many accounts can evict other failure counters but never the learned
 * devices and networks. A user whose history was evicted looks new again (score `no-history`), which
 * errs towards asking for MFA, not away from it.
 */
export class InMemorySignInHistoryStore implements SignInHistoryStore {
  private readonly successes = new Map<string, Successes>();
  private readonly failures = new Map<string, number[]>();
  private readonly clock: Clock;
  private readonly maxUsers: number;

  constructor(options: InMemorySignInHistoryStoreOptions) {
    const maxUsers = options.maxUsers ?? IN_MEMORY_SIGN_IN_HISTORY_MAX_USERS;
    if (!Number.isInteger(maxUsers) || maxUsers < 1) {
      throw new PlatformError("CONFIGURATION_INVALID", "InMemorySignInHistoryStore maxUsers must be >= 1", {
        details: { maxUsers },
      });
    }
    this.clock = options.clock;
    this.maxUsers = maxUsers;
  }

  async historyOf(userId: string): Promise<SignInHistory> {
    const s = this.successes.get(userId);
    const recentFailures = this.recentFailures(userId);
    if (s === undefined && recentFailures === 0) return EMPTY_SIGN_IN_HISTORY;
    return Object.freeze({
      knownDevices: Object.freeze([...(s?.devices ?? [])]),
      knownNetworks: Object.freeze([...(s?.networks ?? [])]),
      recentFailures,
      usualHours: Object.freeze(s ? s.hours.flatMap((n, hour) => (n > 0 ? [hour] : [])) : []),
      signInCount: s?.count ?? 0,
    });
  }

  async recordSuccess(success: SignInSuccess): Promise<void> {
    const entry = this.successes.get(success.userId) ?? {
      devices: [],
      networks: [],
      hours: new Array<number>(24).fill(0),
      count: 0,
    };
    const device = parseDeviceId(success.deviceId);
    if (device !== undefined) pushRecent(entry.devices, device, SIGN_IN_HISTORY_LIMITS.maxDevices);
    const network = networkOf(success.remoteAddress);
    if (network !== undefined) pushRecent(entry.networks, network, SIGN_IN_HISTORY_LIMITS.maxNetworks);
    const hour = new Date(success.at).getUTCHours();
    if (Number.isInteger(hour)) entry.hours[hour] = (entry.hours[hour] ?? 0) + 1;
    entry.count++;
    touch(this.successes, success.userId, entry, this.maxUsers);
    // The user proved who they are; earlier typos should not weigh on the next sign-in.
    this.failures.delete(success.userId);
  }

  async recordFailure(failure: SignInFailure): Promise<void> {
    const since = this.clock.now() - SIGN_IN_HISTORY_LIMITS.failureWindowMs;
    const kept = (this.failures.get(failure.userId) ?? []).filter((at) => at > since);
    kept.push(failure.at);
    if (kept.length > SIGN_IN_HISTORY_LIMITS.maxFailuresPerUser) kept.shift();
    touch(this.failures, failure.userId, kept, this.maxUsers);
  }

  /** Users with remembered successes and users with remembered failures (for tests and metrics). */
  size(): { successes: number; failures: number } {
    return { successes: this.successes.size, failures: this.failures.size };
  }

  private recentFailures(userId: string): number {
    const since = this.clock.now() - SIGN_IN_HISTORY_LIMITS.failureWindowMs;
    return (this.failures.get(userId) ?? []).filter((at) => at > since).length;
  }
}

/** Moves `value` to the front of `list`, keeping at most `max` entries. */
function pushRecent(list: string[], value: string, max: number): void {
  const at = list.indexOf(value);
  if (at >= 0) list.splice(at, 1);
  list.unshift(value);
  if (list.length > max) list.length = max;
}

/** Re-inserts `key` as the most recently written and evicts the oldest beyond `max`. */
function touch<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
}
