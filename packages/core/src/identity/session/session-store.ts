import type { InjectionToken } from "tsyringe";

/** One server-side session. `data` holds the security context and other small values. */
export interface SessionRecord {
  readonly id: string;
  data: Record<string, unknown>;
  readonly createdAt: number;
  lastAccessedAt: number;
  /** Epoch ms after which the session is gone (idle timeout from the last access). */
  expiresAt: number;
}

/**
 * Where sessions live; shared by every session chain (one cookie, one store). A session is live while
 * `clock.now() < expiresAt`; `data` must be structured-clonable (a database adapter serialises it).
 */
export interface SessionStore {
  /** A live session, or undefined when absent or expired (expiry is checked on read). */
  get(id: string): Promise<SessionRecord | undefined>;
  /** Creates or replaces a session. */
  save(session: SessionRecord): Promise<void>;
  /** Removes a session; true when it existed. */
  delete(id: string): Promise<boolean>;
  /**
   * Moves a live session's `lastAccessedAt`/`expiresAt` without rewriting its data; false when the
   * session is absent or expired. Optional so existing adapters keep compiling; when present, the
   * SessionManager uses it for the per-request touch, so a touch can neither overwrite data another
   * request saved meanwhile nor bring back a session that was deleted (rotated or logged out).
   */
  touch?(id: string, lastAccessedAt: number, expiresAt: number): Promise<boolean>;
  /**
   * `get` and `touch` in one step: the live session with its `lastAccessedAt`/`expiresAt` moved (its
   * data untouched), or undefined when absent or expired. Optional; when present, the SessionManager
   * loads each request's session with it, so a database store answers a session request in one
   * round trip instead of two.
   */
  getAndTouch?(id: string, lastAccessedAt: number, expiresAt: number): Promise<SessionRecord | undefined>;
}

/** DI token of the SessionStore port. */
export const SessionStore: InjectionToken<SessionStore> = Symbol.for("platform.SessionStore");
