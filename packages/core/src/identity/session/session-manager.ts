import type { Clock } from "../../kernel/clock.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange, ResponseCookie } from "../../web/http-exchange.js";
import { copySessionData } from "./session-data-copy.js";
import type { SessionRecord, SessionStore } from "./session-store.js";
import { sessionDataToRead } from "./shared-session-record.js";

/** Default name of the one session cookie every session chain shares. */
export const DEFAULT_SESSION_COOKIE_NAME = "PLATFORM_SESSION";

/** Default idle timeout: 30 minutes. */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60_000;

/** Default absolute lifetime: 12 hours from sign-in, however busy the session. */
export const DEFAULT_SESSION_MAX_LIFETIME_MS = 12 * 60 * 60_000;

/** Options of the SessionManager. */
export interface SessionManagerOptions {
  /** Where sessions live. */
  store: SessionStore;
  /** Stamps access times and expiry. */
  clock: Clock;
  /** Makes session ids: `ids.secret(32)`, 256 random bits, base64url. */
  ids: IdGenerator;
  /** Cookie name (default `PLATFORM_SESSION`); must be an RFC 6265 token. */
  cookieName?: string;
  /** A session dies this long after its last request (default 30 minutes). */
  idleTimeoutMs?: number;
  /** A session dies this long after it began or its user signed in (default 12 hours), however busy. */
  maxLifetimeMs?: number;
  /** SameSite of the cookie (default `Lax`). `None` only works over https (browsers then need Secure). */
  sameSite?: "Strict" | "Lax" | "None";
}

const SESSION_ATTRIBUTE = "platform.session";
const COOKIE_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Ids we mint are 43 characters; anything far longer is not ours and is not even looked up. */
const MAX_ID_LENGTH = 256;
/**
 * The request's session when it has none (no cookie, or one not worth looking up): one settled
 * promise shared by every such request, so that reading it costs no promise and no async step.
 */
export const NO_SESSION: Promise<undefined> = Promise.resolve(undefined);

/**
 * What a SessionManager knows of one request's session (kept on the exchange): the load's promise
 * (the store's pending answer, or a settled one made when `current` is first asked) and, once the
 * answer is admitted, the record itself (`known`).
 */
class RequestSession {
  known = false;
  record: SessionRecord | undefined = undefined;
  constructor(public pending: Promise<SessionRecord | undefined> | undefined) {}
}

/** A RequestSession known at once (a store that answered without a promise, a session just begun). */
function knownSession(record: SessionRecord | undefined): RequestSession {
  const request = new RequestSession(undefined);
  request.known = true;
  request.record = record;
  return request;
}

/** The request's session when it has none, known and settled: shared by every such request. */
const NO_REQUEST_SESSION: RequestSession = knownSession(undefined);
NO_REQUEST_SESSION.pending = NO_SESSION;
Object.freeze(NO_REQUEST_SESSION);

/** True for a promise or any other thenable (a host store's answer may be either). */
function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as PromiseLike<T> | undefined)?.then === "function";
}

/** A value of the session's data (see `getValue`): undefined without a session or when `accept` refuses it. */
function sessionValue(
  session: SessionRecord | undefined,
  key: string,
  accept: ((value: unknown) => boolean) | undefined,
): unknown {
  if (!session) return undefined;
  const data = sessionDataToRead(session);
  const value = Object.hasOwn(data, key) ? data[key] : undefined;
  return accept === undefined || accept(value) ? value : undefined;
}

/**
 * Server-side sessions over HTTP: one HttpOnly, SameSite, Path=/ cookie (Secure on https) carrying
 * an unguessable id, the record in the SessionStore. The session is loaded once per request and
 * cached in `exchange.attributes`; each load moves the idle expiry. Only ids this manager minted are
 * ever used: a cookie naming an unknown or expired session is cleared, never adopted, so nobody can
 * plant a session id on a victim (fixation); `rotate` gives a signed-in user a new id.
 */
export class SessionManager {
  /** The session cookie's name. */
  readonly cookieName: string;
  /** Idle timeout in milliseconds. */
  readonly idleTimeoutMs: number;
  /** Absolute lifetime in milliseconds (from the session's start or its last sign-in). */
  readonly maxLifetimeMs: number;
  private readonly store: SessionStore;
  private readonly clock: Clock;
  private readonly ids: IdGenerator;
  private readonly sameSite: "Strict" | "Lax" | "None";

  constructor(options: SessionManagerOptions) {
    this.store = options.store;
    this.clock = options.clock;
    this.ids = options.ids;
    this.cookieName = options.cookieName ?? DEFAULT_SESSION_COOKIE_NAME;
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS;
    this.maxLifetimeMs = options.maxLifetimeMs ?? DEFAULT_SESSION_MAX_LIFETIME_MS;
    this.sameSite = options.sameSite ?? "Lax";
    if (!COOKIE_NAME.test(this.cookieName)) {
      throw new PlatformError("CONFIGURATION_INVALID", "Session cookie name must be a cookie token", {
        details: { cookieName: this.cookieName },
      });
    }
    if (!Number.isFinite(this.idleTimeoutMs) || this.idleTimeoutMs <= 0) {
      throw new PlatformError("CONFIGURATION_INVALID", "Session idle timeout must be a positive duration", {
        details: { idleTimeoutMs: this.idleTimeoutMs },
      });
    }
    if (!Number.isFinite(this.maxLifetimeMs) || this.maxLifetimeMs <= 0) {
      throw new PlatformError("CONFIGURATION_INVALID", "Session max lifetime must be a positive duration", {
        details: { maxLifetimeMs: this.maxLifetimeMs },
      });
    }
    if (!["Strict", "Lax", "None"].includes(this.sameSite)) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        "Session cookie SameSite must be Strict, Lax or None",
        {
          details: { sameSite: this.sameSite },
        },
      );
    }
  }

  /**
   * The request's session, or undefined. Loaded from the cookie once per request (later calls share
   * the result) and touched: `lastAccessedAt` is now, `expiresAt` now plus the idle timeout. Changes
   * to the returned record's `data` are persisted by `save`.
   */
  current(exchange: HttpExchange): Promise<SessionRecord | undefined> {
    const request = this.requestSession(exchange);
    if (request.pending === undefined) {
      // Loaded without a promise (a store that answered at once): one settled promise, made when asked.
      request.pending = Promise.resolve(request.record);
    }
    return request.pending;
  }

  /**
   * `current`, but the record itself (or undefined) once the request's session is known: from a store
   * that answers at once, or after the store's promise settled. A promise only while the store has not
   * answered (or the session is being deleted past its absolute lifetime), so that every reader after
   * the first in a request (the security context, zero trust's session handle) costs no promise.
   */
  currentOrPending(exchange: HttpExchange): SessionRecord | undefined | Promise<SessionRecord | undefined> {
    const request = this.requestSession(exchange);
    return request.known ? request.record : this.current(exchange);
  }

  /** The request's session, creating (and cookie-setting) a fresh one when there is none. */
  async getOrCreate(exchange: HttpExchange): Promise<SessionRecord> {
    const existing = await this.current(exchange);
    if (existing) return existing;
    const now = this.clock.now();
    return this.begin(exchange, { data: {}, createdAt: now });
  }

  /**
   * Gives the session a new id (call it on login, against fixation): the data is copied to a session
   * under a fresh `ids.secret(32)`, the old id is deleted and the cookie re-set. Without a session, a
   * new one is created. With `userId` (a sign-in), the new session is indexed under that user
   * (`SessionStore.deleteByUser` finds it), and its absolute lifetime starts now when the user differs
   * from the session's (a step-up of the same user never extends it); otherwise the old session's user
   * and start carry over.
   */
  async rotate(exchange: HttpExchange, userId?: string): Promise<SessionRecord> {
    const old = await this.current(exchange);
    const now = this.clock.now();
    const owner = userId ?? old?.userId;
    // A new user (or a first sign-in) starts the absolute lifetime; the same user stepping up does not.
    const signsInAnew = userId !== undefined && userId !== old?.userId;
    const fresh = await this.begin(exchange, {
      // copySessionData is structuredClone's copy; from the data to read, it is one copy, not two.
      data: old ? copySessionData(sessionDataToRead(old)) : {},
      createdAt: signsInAnew || old === undefined ? now : old.createdAt,
      ...(owner === undefined ? {} : { userId: owner }),
    });
    if (old) await this.store.delete(old.id);
    return fresh;
  }

  /** Ends the session (logout): deletes it from the store and clears the cookie (Max-Age 0). */
  async invalidate(exchange: HttpExchange): Promise<void> {
    const session = await this.current(exchange);
    exchange.attributes.set(SESSION_ATTRIBUTE, NO_REQUEST_SESSION);
    if (session) await this.store.delete(session.id);
    this.clearCookie(exchange);
  }

  /** Persists changes made to the current session's `data`; does nothing without a session. */
  async save(exchange: HttpExchange): Promise<void> {
    const session = await this.current(exchange);
    if (session) await this.persist(exchange, session);
  }

  /**
   * A value from the session's data, or undefined (never creates a session); with `accept`, a value
   * it refuses reads as undefined. The value is read-only: it may be the store's own (frozen, shared
   * with every request of the session, on the in-memory store), so change it through `setValue`. A
   * plain function: without a session (or without the value) it answers one shared settled promise;
   * once the session is known (`currentOrPending`), a settled promise of the value; before, a single
   * `then` on the session's load.
   */
  getValue(exchange: HttpExchange, key: string): Promise<unknown>;
  getValue<T>(
    exchange: HttpExchange,
    key: string,
    accept: (value: unknown) => value is T,
  ): Promise<T | undefined>;
  getValue(exchange: HttpExchange, key: string, accept?: (value: unknown) => boolean): Promise<unknown> {
    const request = this.requestSession(exchange);
    if (request === NO_REQUEST_SESSION) return NO_SESSION;
    if (request.known) {
      // Known: no `then` on the session's load; a value that is not there is the shared NO_SESSION.
      const value = sessionValue(request.record, key, accept);
      return value === undefined ? NO_SESSION : Promise.resolve(value);
    }
    return this.current(exchange).then((session) => sessionValue(session, key, accept));
  }

  /**
   * `getValue`, but the value itself (or undefined) once the request's session is known
   * (`currentOrPending`); a promise of it only while the store has not answered.
   */
  getValueOrPending<T>(
    exchange: HttpExchange,
    key: string,
    accept: (value: unknown) => value is T,
  ): T | undefined | Promise<T | undefined> {
    const request = this.requestSession(exchange);
    if (request.known) return sessionValue(request.record, key, accept) as T | undefined;
    return this.current(exchange).then((session) => sessionValue(session, key, accept) as T | undefined);
  }

  /** Stores a value in the session's data (creating the session) and persists it; undefined removes it. */
  async setValue(exchange: HttpExchange, key: string, value: unknown): Promise<void> {
    if (value === undefined) return this.removeValue(exchange, key);
    const session = await this.getOrCreate(exchange);
    session.data[key] = value;
    await this.persist(exchange, session);
  }

  /** Removes a value from the session's data and persists it (never creates a session). */
  async removeValue(exchange: HttpExchange, key: string): Promise<void> {
    const session = await this.current(exchange);
    // Checked on the data to read, so a key that is not there costs no copy of the session's data.
    if (!session || !Object.hasOwn(sessionDataToRead(session), key)) return;
    delete session.data[key];
    await this.persist(exchange, session);
  }

  /**
   * Writes the request's session back, only while it is still live (`SessionStore.update`): a session
   * ended while this request ran (logout, rotation, "end other sessions") stays ended, the write is
   * dropped and the cookie cleared. A store without `update` is written with `save`.
   */
  private async persist(exchange: HttpExchange, session: SessionRecord): Promise<void> {
    const store = this.store;
    if (store.update === undefined) return store.save(session);
    if (await store.update(session)) return;
    exchange.attributes.set(SESSION_ATTRIBUTE, NO_REQUEST_SESSION);
    this.clearCookie(exchange);
  }

  /** The request's RequestSession: loaded from the cookie on first use, then kept on the exchange. */
  private requestSession(exchange: HttpExchange): RequestSession {
    let request = exchange.attributes.get(SESSION_ATTRIBUTE) as RequestSession | undefined;
    if (request === undefined) {
      request = this.load(exchange);
      exchange.attributes.set(SESSION_ATTRIBUTE, request);
    }
    return request;
  }

  /**
   * The request's session from its cookie. Without a cookie (or with one not worth looking up) it is
   * NO_REQUEST_SESSION at once. A store whose `getAndTouch` answers at once (the in-memory one) is
   * admitted at once: no promise at all. A store answering a promise gets one `then` that admits its
   * answer and, once settled, records it, so later readers in the request read it without a `then`.
   */
  private load(exchange: HttpExchange): RequestSession {
    try {
      const id = exchange.cookie(this.cookieName);
      if (id === undefined) return NO_REQUEST_SESSION;
      if (id.length === 0 || id.length > MAX_ID_LENGTH) {
        this.clearCookie(exchange);
        return NO_REQUEST_SESSION;
      }
      const store = this.store;
      if (store.getAndTouch === undefined) return this.admitLater(exchange, this.loadTouched(id));
      // Read and touched in one store step.
      const now = this.clock.now();
      const answer = store.getAndTouch(id, now, now + this.idleTimeoutMs);
      if (isThenable(answer)) return this.admitLater(exchange, Promise.resolve(answer));
      const admitted = this.admit(exchange, answer);
      return admitted instanceof Promise ? new RequestSession(admitted) : knownSession(admitted);
    } catch (error) {
      // As an async function would: a store that throws instead of rejecting still answers a rejection.
      return new RequestSession(Promise.reject(error));
    }
  }

  /** A RequestSession over the store's pending answer: admitted, then known, when it settles. */
  private admitLater(exchange: HttpExchange, answer: Promise<SessionRecord | undefined>): RequestSession {
    const request = new RequestSession(undefined);
    request.pending = answer.then((session) => {
      const admitted = this.admit(exchange, session);
      // Past its absolute lifetime (being deleted): left to the promise, the rare path.
      if (admitted instanceof Promise) return admitted;
      request.known = true;
      request.record = admitted;
      return admitted;
    });
    return request;
  }

  /**
   * What the store answered for the cookie, admitted: a session that is gone clears the cookie, one
   * past its absolute lifetime is deleted (however recently it was used) and clears it too.
   */
  private admit(
    exchange: HttpExchange,
    session: SessionRecord | undefined,
  ): SessionRecord | undefined | Promise<undefined> {
    // `!session`, not `=== undefined`: a host's store answering null means gone too.
    if (!session) {
      this.clearCookie(exchange);
      return undefined;
    }
    if (this.clock.now() < session.createdAt + this.maxLifetimeMs) return session;
    return Promise.resolve(this.store.delete(session.id)).then(() => {
      this.clearCookie(exchange);
      return undefined;
    });
  }

  /** `load` on a store without `getAndTouch`: read, then touched (or saved); undefined when gone. */
  private async loadTouched(id: string): Promise<SessionRecord | undefined> {
    const session = await this.store.get(id);
    if (!session) return undefined;
    const now = this.clock.now();
    session.lastAccessedAt = now;
    session.expiresAt = now + this.idleTimeoutMs;
    if (this.store.touch) {
      if (!(await this.store.touch(session.id, session.lastAccessedAt, session.expiresAt))) return undefined;
    } else {
      await this.store.save(session);
    }
    return session;
  }

  private async begin(
    exchange: HttpExchange,
    seed: { data: Record<string, unknown>; createdAt: number; userId?: string },
  ): Promise<SessionRecord> {
    const now = this.clock.now();
    const session: SessionRecord = {
      id: this.ids.secret(32),
      ...(seed.userId === undefined ? {} : { userId: seed.userId }),
      data: seed.data,
      createdAt: seed.createdAt,
      lastAccessedAt: now,
      expiresAt: Math.min(now + this.idleTimeoutMs, seed.createdAt + this.maxLifetimeMs),
    };
    await this.store.save(session);
    exchange.attributes.set(SESSION_ATTRIBUTE, knownSession(session));
    exchange.setCookie(this.cookie(exchange, session.id));
    return session;
  }

  private clearCookie(exchange: HttpExchange): void {
    exchange.setCookie({ ...this.cookie(exchange, ""), maxAge: 0 });
  }

  private cookie(exchange: HttpExchange, value: string): ResponseCookie {
    return {
      name: this.cookieName,
      value,
      path: "/",
      httpOnly: true,
      secure: exchange.secure,
      sameSite: this.sameSite,
    };
  }
}
