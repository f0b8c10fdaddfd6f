import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { copySessionData } from "./session-data-copy.js";
import type { SessionRecord, SessionStore } from "./session-store.js";

/** Default bound of the InMemorySessionStore. */
export const DEFAULT_MAX_SESSIONS = 100_000;

/** Options of the InMemorySessionStore. */
export interface InMemorySessionStoreOptions {
  /** Decides expiry (a session is live while `clock.now() < expiresAt`). */
  clock: Clock;
  /**
   * Most sessions kept (default 100_000). Saving one more evicts the least recently used (read or
   * saved), so a flood of anonymous sessions costs the oldest idle sessions, never the process's memory.
   */
  maxSessions?: number;
}

/**
 * The reference SessionStore, used by tests and the embedded default. It stores and returns deep
 * copies (`structuredClone`'s result, made by hand for plain data: `copySessionData`), so a caller's
 * later changes reach the store only through `save`, exactly as with a database adapter. A Map in insertion order doubles as the LRU list: every read or write
 * moves the session to the end, eviction takes from the front.
 */
export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly clock: Clock;
  private readonly maxSessions: number;

  constructor(options: InMemorySessionStoreOptions) {
    const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    if (!Number.isSafeInteger(maxSessions) || maxSessions < 1) {
      throw new PlatformError("CONFIGURATION_INVALID", "maxSessions must be a positive integer", {
        details: { maxSessions },
      });
    }
    this.clock = options.clock;
    this.maxSessions = maxSessions;
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const live = this.live(id);
    return live && copy(live);
  }

  async save(session: SessionRecord): Promise<void> {
    const stored = copy(session);
    this.sessions.delete(session.id);
    this.sessions.set(session.id, stored);
    while (this.sessions.size > this.maxSessions) {
      const oldest = this.sessions.keys().next();
      if (oldest.done) break;
      this.sessions.delete(oldest.value);
    }
  }

  async delete(id: string): Promise<boolean> {
    const existed = this.live(id) !== undefined;
    this.sessions.delete(id);
    return existed;
  }

  async touch(id: string, lastAccessedAt: number, expiresAt: number): Promise<boolean> {
    const live = this.live(id);
    if (!live) return false;
    live.lastAccessedAt = lastAccessedAt;
    live.expiresAt = expiresAt;
    return true;
  }

  async getAndTouch(
    id: string,
    lastAccessedAt: number,
    expiresAt: number,
  ): Promise<SessionRecord | undefined> {
    const live = this.live(id);
    if (!live) return undefined;
    live.lastAccessedAt = lastAccessedAt;
    live.expiresAt = expiresAt;
    return copy(live);
  }

  /** Removes every expired session; returns how many went. Expiry is enforced on read regardless. */
  purgeExpired(): number {
    const now = this.clock.now();
    let removed = 0;
    for (const [id, session] of this.sessions) {
      if (session.expiresAt <= now) {
        this.sessions.delete(id);
        removed++;
      }
    }
    return removed;
  }

  /** How many sessions are held, expired ones not yet purged included (for diagnostics and tests). */
  get size(): number {
    return this.sessions.size;
  }

  /** The stored session when live (moved to the LRU end); an expired one is dropped on the way. */
  private live(id: string): SessionRecord | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    this.sessions.delete(id);
    if (session.expiresAt <= this.clock.now()) return undefined;
    this.sessions.set(id, session);
    return session;
  }
}

function copy(session: SessionRecord): SessionRecord {
  return {
    id: session.id,
    data: copySessionData(session.data),
    createdAt: session.createdAt,
    lastAccessedAt: session.lastAccessedAt,
    expiresAt: session.expiresAt,
  };
}
