import type { Clock } from "../../../kernel/clock.js";
import type { ChangeCounters } from "../../../kernel/coordination/change-counters.js";
import type { Authentication } from "../../authentication/authentication.js";
import type { UserRepository } from "../user-repository.js";
import {
  ACCOUNT_STANDING_TOPIC,
  type AccountStanding,
  STANDING_DOES_NOT_HOLD,
  STANDING_HOLDS,
} from "./account-standing.js";

/** Most accounts the standing cache holds; beyond, the oldest read is dropped. */
export const ACCOUNT_STANDING_CACHE_MAX_ENTRIES = 100_000;
/** Longest an account's standing is served from the cache, whatever the change poll says. */
export const ACCOUNT_STANDING_CACHE_TTL_MS = 30_000;

interface Entry {
  /** Undefined: no such account, or disabled. */
  readonly stamp: string | undefined;
  readonly enabled: boolean;
  readonly until: number;
}

/** What a CachedAccountStanding needs. */
export interface CachedAccountStandingOptions {
  users: Pick<UserRepository, "findById">;
  counters: ChangeCounters;
  clock: Clock;
  /** Longest an entry is served (default ACCOUNT_STANDING_CACHE_TTL_MS): the bound when the change poll fails. */
  ttlMs?: number;
}

/**
 * The default AccountStanding: one `findById` per account and cache period, then a Map lookup per
 * request. `changed` drops the entry here and bumps the `identity.account-standing` counter, which
 * the other instances poll (`forgetAll` on a move). A read that raced a change is not cached. Stamps
 * are compared as given: an account and a sign-in that both have none (older data) agree.
 */
export class CachedAccountStanding implements AccountStanding {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private generation = 0;

  constructor(private readonly o: CachedAccountStandingOptions) {
    this.ttlMs = o.ttlMs ?? ACCOUNT_STANDING_CACHE_TTL_MS;
  }

  /**
   * Not an async function: a fresh cached entry (every authenticated request) answers STANDING_HOLDS
   * or STANDING_DOES_NOT_HOLD (settled, shared); a miss reads the account (`entry`). Never throws: a failure is a rejection.
   */
  holds(authentication: Authentication): Promise<boolean> {
    try {
      const cached = this.entries.get(authentication.userId);
      if (cached !== undefined && this.o.clock.now() < cached.until) {
        // `stands`, inline (every authenticated request).
        return cached.enabled && (cached.stamp ?? "") === (authentication.securityStamp ?? "")
          ? STANDING_HOLDS
          : STANDING_DOES_NOT_HOLD;
      }
      return this.entry(authentication.userId).then((entry) => stands(entry, authentication));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async changed(userId: string): Promise<void> {
    this.forget(userId);
    await this.o.counters.bump(ACCOUNT_STANDING_TOPIC);
  }

  /** Drops one account's cached standing. */
  forget(userId: string): void {
    this.generation++;
    this.entries.delete(userId);
  }

  /** Drops every cached standing (another instance changed one). */
  forgetAll(): void {
    this.generation++;
    this.entries.clear();
  }

  private async entry(userId: string): Promise<Entry> {
    const now = this.o.clock.now();
    const cached = this.entries.get(userId);
    if (cached !== undefined && now < cached.until) return cached;
    const generation = this.generation;
    const account = await this.o.users.findById(userId);
    const entry: Entry = {
      stamp: account?.securityStamp,
      enabled: account?.enabled === true,
      until: now + this.ttlMs,
    };
    if (generation === this.generation) this.remember(userId, entry);
    return entry;
  }

  private remember(userId: string, entry: Entry): void {
    this.entries.delete(userId);
    if (this.entries.size >= ACCOUNT_STANDING_CACHE_MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(userId, entry);
  }
}

/** Whether `entry` says the sign-in still stands: enabled, with the sign-in's stamp. */
function stands(entry: Entry, authentication: Authentication): boolean {
  return entry.enabled && (entry.stamp ?? "") === (authentication.securityStamp ?? "");
}
