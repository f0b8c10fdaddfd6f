import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { copySessionData, frozenSessionData } from "./session-data-copy.js";
import {
  type SessionRecord,
  type SessionStore,
  type SessionSummary,
  sessionStoreHandle,
} from "./session-store.js";
import { sharedSessionRecord } from "./shared-session-record.js";

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
 * The reference SessionStore, used by tests and the embedded default. A caller's changes reach the
 * store only through `save`, exactly as with a database adapter: `save` stores a deep copy
 * (`structuredClone`'s result, made by hand for plain data), and a read answers a record whose data
 * is the reader's own. Plain data (what sessions hold) is stored frozen and shared by every read
 * (`sharedSessionRecord`): a reader's own copy is made only when it asks for `data`, so the
 * SessionManager's per-request read of a value copies nothing. Other data is copied on every read. A
 * Map in insertion order doubles as the LRU list: every read or write moves the session to the end,
 * eviction takes from the front.
 */
export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, SessionRecord>();
  /** userId → ids of the sessions saved for that user (kept in step with `sessions`). */
  private readonly byUser = new Map<string, Set<string>>();
  private readonly clock: Clock;
  private readonly maxSessions: number;
  /** The id of the Map's last entry, when known: reading it again needs no move (see `live`). */
  private newest: string | undefined;

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

  // A plain function, not an async one: the answer is at hand, and one settled promise is all it costs.
  get(id: string): Promise<SessionRecord | undefined> {
    const live = this.live(id);
    return live ? Promise.resolve(readerRecord(live)) : NOT_FOUND;
  }

  async save(session: SessionRecord): Promise<void> {
    const stored = storedRecord(session);
    this.remove(session.id);
    this.sessions.set(session.id, stored);
    this.newest = session.id;
    if (stored.userId !== undefined) {
      const ids = this.byUser.get(stored.userId) ?? new Set<string>();
      ids.add(stored.id);
      this.byUser.set(stored.userId, ids);
    }
    while (this.sessions.size > this.maxSessions) {
      const oldest = this.sessions.keys().next();
      if (oldest.done) break;
      this.remove(oldest.value);
    }
  }

  async update(session: SessionRecord): Promise<boolean> {
    // Checked and replaced in one synchronous step: no other write can come between.
    if (this.live(session.id) === undefined) return false;
    await this.save(session);
    return true;
  }

  async delete(id: string): Promise<boolean> {
    const existed = this.live(id) !== undefined;
    this.remove(id);
    return existed;
  }

  async listByUser(userId: string, limit = 100): Promise<SessionSummary[]> {
    const now = this.clock.now();
    return [...(this.byUser.get(userId) ?? [])]
      .map((id) => this.sessions.get(id))
      .filter((s): s is SessionRecord => s !== undefined && now < s.expiresAt)
      .map((s) => ({
        handle: sessionStoreHandle(s.id),
        createdAt: s.createdAt,
        lastAccessedAt: s.lastAccessedAt,
        expiresAt: s.expiresAt,
      }))
      .sort((a, b) => a.createdAt - b.createdAt || (a.handle < b.handle ? -1 : 1))
      .slice(0, Math.max(0, limit));
  }

  async deleteByUser(userId: string): Promise<number> {
    const ids = [...(this.byUser.get(userId) ?? [])];
    for (const id of ids) this.remove(id);
    this.byUser.delete(userId);
    return ids.length;
  }

  async deleteByHandle(userId: string, handle: string): Promise<boolean> {
    const id = this.idOfHandle(userId, handle);
    return id === undefined ? false : this.delete(id);
  }

  async deleteByUserExcept(userId: string, keepHandle: string | undefined): Promise<number> {
    let removed = 0;
    for (const id of [...(this.byUser.get(userId) ?? [])]) {
      if (keepHandle !== undefined && sessionStoreHandle(id) === keepHandle) continue;
      this.remove(id);
      removed++;
    }
    return removed;
  }

  async touch(id: string, lastAccessedAt: number, expiresAt: number): Promise<boolean> {
    const live = this.live(id);
    if (!live) return false;
    live.lastAccessedAt = lastAccessedAt;
    live.expiresAt = expiresAt;
    return true;
  }

  // Answered at once, without a promise (the port allows it): every request with a session cookie runs it.
  getAndTouch(id: string, lastAccessedAt: number, expiresAt: number): SessionRecord | undefined {
    const live = this.live(id);
    if (!live) return undefined;
    live.lastAccessedAt = lastAccessedAt;
    live.expiresAt = expiresAt;
    return readerRecord(live);
  }

  /** Removes every expired session; returns how many went. Expiry is enforced on read regardless. */
  purgeExpired(): number {
    const now = this.clock.now();
    let removed = 0;
    for (const [id, session] of this.sessions) {
      if (session.expiresAt <= now) {
        this.remove(id);
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
    if (session.expiresAt <= this.clock.now()) {
      this.remove(id);
      return undefined;
    }
    // Already the last entry (a busy session read again): no move. A move is a delete and a set, and
    // V8 keeps a deleted entry in its bucket's chain until the Map is rehashed, so moving one session
    // over and over made each read walk that session's own deleted entries (25 µs a read among 100,000).
    if (id !== this.newest) {
      this.sessions.delete(id);
      this.sessions.set(id, session);
      this.newest = id;
    }
    return session;
  }

  /** The id of the user's session whose handle is `handle` (a user has few sessions: a scan). */
  private idOfHandle(userId: string, handle: string): string | undefined {
    for (const id of this.byUser.get(userId) ?? []) if (sessionStoreHandle(id) === handle) return id;
    return undefined;
  }

  /** Drops a session and its index entry. */
  private remove(id: string): void {
    const session = this.sessions.get(id);
    this.sessions.delete(id);
    if (id === this.newest) this.newest = undefined;
    if (session?.userId === undefined) return;
    const ids = this.byUser.get(session.userId);
    ids?.delete(id);
    if (ids?.size === 0) this.byUser.delete(session.userId);
  }
}

/** The answer of a read that found nothing (one settled promise, shared). */
const NOT_FOUND: Promise<undefined> = Promise.resolve(undefined);

/**
 * What `save` keeps: a copy of the record whose data is frozen when it is plain (the only records
 * with frozen data: `structuredClone`'s copies never are), a changeable copy otherwise.
 */
function storedRecord(session: SessionRecord): SessionRecord {
  const data = session.data;
  return withData(session, frozenSessionData(data) ?? structuredClone(data));
}

/** What a read answers: a record over the shared frozen data, or a fresh copy of data that is not. */
function readerRecord(stored: SessionRecord): SessionRecord {
  const data = stored.data;
  return Object.isFrozen(data) ? sharedSessionRecord(stored, data) : withData(stored, copySessionData(data));
}

function withData(session: SessionRecord, data: Record<string, unknown>): SessionRecord {
  return {
    id: session.id,
    ...(session.userId === undefined ? {} : { userId: session.userId }),
    data,
    createdAt: session.createdAt,
    lastAccessedAt: session.lastAccessedAt,
    expiresAt: session.expiresAt,
  };
}
