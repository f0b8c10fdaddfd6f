import { createHash } from "node:crypto";
import type { InjectionToken } from "tsyringe";

/** One server-side session. `data` holds the security context and other small values. */
export interface SessionRecord {
  readonly id: string;
  /** The signed-in user the session belongs to (set at sign-in); what `listByUser`/`deleteByUser` find it by. */
  readonly userId?: string | undefined;
  data: Record<string, unknown>;
  readonly createdAt: number;
  lastAccessedAt: number;
  /** Epoch ms after which the session is gone (idle timeout from the last access). */
  expiresAt: number;
}

/** One live session of a user, as `listByUser` lists it: no id (a bearer secret), no data. */
export interface SessionSummary {
  /** `sessionStoreHandle(id)`: names the session in lists without revealing it. */
  readonly handle: string;
  readonly createdAt: number;
  readonly lastAccessedAt: number;
  readonly expiresAt: number;
}

/** The handle of a session id: its SHA-256, base64url (what a database adapter keys the session by). */
export function sessionStoreHandle(id: string): string {
  return createHash("sha256").update(id, "utf8").digest("base64url");
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
  /**
   * Replaces a live session's record, in one step; false, changing nothing, when it is absent or
   * expired. Optional so existing adapters keep compiling; when present, the SessionManager writes
   * every session it did not just create with it, so a request that loaded a session before it was
   * ended (logout, rotation, "end other sessions") cannot bring it back by writing to it. A store
   * without it is written with `save`, which recreates such a session: implement it.
   */
  update?(session: SessionRecord): Promise<boolean>;
  /** Removes a session; true when it existed. */
  delete(id: string): Promise<boolean>;
  /**
   * The live sessions of a user (by `userId`), oldest first, at most `limit` (default 100): summaries
   * with a non-secret handle (`sessionStoreHandle(id)`), never the session id or its data.
   */
  listByUser(userId: string, limit?: number): Promise<SessionSummary[]>;
  /**
   * Removes every session of a user, live or expired, in one step (an account's standing changed, or
   * "sign out everywhere"); how many were removed. A session saved for the user after this returns is
   * not affected.
   */
  deleteByUser(userId: string): Promise<number>;
  /**
   * Removes the one session of `userId` whose handle is `handle`, in one step; true when a live one
   * was removed. A handle of another user's session removes nothing and answers false, as an unknown one
   * does (the account page's "end this session").
   */
  deleteByHandle(userId: string, handle: string): Promise<boolean>;
  /**
   * Removes every session of `userId` but the one whose handle is `keepHandle` (none kept when
   * undefined), live or expired, in one step; how many were removed ("end all other sessions"). A session saved for the user after this returns is not affected.
   */
  deleteByUserExcept(userId: string, keepHandle: string | undefined): Promise<number>;
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
   * round trip instead of two. A store that has the answer at hand (in memory) may answer it without
   * a promise; the SessionManager then reads the request's session without an async step.
   */
  getAndTouch?(
    id: string,
    lastAccessedAt: number,
    expiresAt: number,
  ): SessionRecord | undefined | Promise<SessionRecord | undefined>;
}

/** DI token of the SessionStore port. */
export const SessionStore: InjectionToken<SessionStore> = Symbol.for("platform.SessionStore");
