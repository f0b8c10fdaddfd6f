import type { Clock } from "../../kernel/clock.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange, ResponseCookie } from "../../web/http-exchange.js";
import type { SessionRecord, SessionStore } from "./session-store.js";

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
    let pending = exchange.attributes.get(SESSION_ATTRIBUTE) as
      | Promise<SessionRecord | undefined>
      | undefined;
    if (!pending) {
      pending = this.load(exchange);
      exchange.attributes.set(SESSION_ATTRIBUTE, pending);
    }
    return pending;
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
      data: old ? structuredClone(old.data) : {},
      createdAt: signsInAnew || old === undefined ? now : old.createdAt,
      ...(owner === undefined ? {} : { userId: owner }),
    });
    if (old) await this.store.delete(old.id);
    return fresh;
  }

  /** Ends the session (logout): deletes it from the store and clears the cookie (Max-Age 0). */
  async invalidate(exchange: HttpExchange): Promise<void> {
    const session = await this.current(exchange);
    exchange.attributes.set(SESSION_ATTRIBUTE, Promise.resolve(undefined));
    if (session) await this.store.delete(session.id);
    this.clearCookie(exchange);
  }

  /** Persists changes made to the current session's `data`; does nothing without a session. */
  async save(exchange: HttpExchange): Promise<void> {
    const session = await this.current(exchange);
    if (session) await this.store.save(session);
  }

  /** A value from the session's data, or undefined (never creates a session). */
  async getValue(exchange: HttpExchange, key: string): Promise<unknown> {
    const session = await this.current(exchange);
    return session && Object.hasOwn(session.data, key) ? session.data[key] : undefined;
  }

  /** Stores a value in the session's data (creating the session) and persists it; undefined removes it. */
  async setValue(exchange: HttpExchange, key: string, value: unknown): Promise<void> {
    if (value === undefined) return this.removeValue(exchange, key);
    const session = await this.getOrCreate(exchange);
    session.data[key] = value;
    await this.store.save(session);
  }

  /** Removes a value from the session's data and persists it (never creates a session). */
  async removeValue(exchange: HttpExchange, key: string): Promise<void> {
    const session = await this.current(exchange);
    if (!session || !Object.hasOwn(session.data, key)) return;
    delete session.data[key];
    await this.store.save(session);
  }

  private async load(exchange: HttpExchange): Promise<SessionRecord | undefined> {
    const id = exchange.cookie(this.cookieName);
    if (id === undefined) return undefined;
    const store = this.store;
    let session: SessionRecord | undefined;
    if (store.getAndTouch !== undefined) {
      // Read and touched in one store step (`getAndTouch`), inline: every request with a session
      // cookie runs this; a session that is gone clears the cookie.
      const now = this.clock.now();
      session =
        id.length > 0 && id.length <= MAX_ID_LENGTH
          ? await store.getAndTouch(id, now, now + this.idleTimeoutMs)
          : undefined;
      if (!session) this.clearCookie(exchange);
    } else session = await this.loadTouched(exchange, id);
    if (session === undefined || this.clock.now() < session.createdAt + this.maxLifetimeMs) return session;
    // Past its absolute lifetime: gone, however recently it was used.
    await this.store.delete(session.id);
    this.clearCookie(exchange);
    return undefined;
  }

  /** `load` on a store without `getAndTouch`: read, then touched (or saved). */
  private async loadTouched(exchange: HttpExchange, id: string): Promise<SessionRecord | undefined> {
    const session = id.length > 0 && id.length <= MAX_ID_LENGTH ? await this.store.get(id) : undefined;
    if (!session) {
      this.clearCookie(exchange);
      return undefined;
    }
    const now = this.clock.now();
    session.lastAccessedAt = now;
    session.expiresAt = now + this.idleTimeoutMs;
    if (this.store.touch) {
      if (!(await this.store.touch(session.id, session.lastAccessedAt, session.expiresAt))) {
        this.clearCookie(exchange);
        return undefined;
      }
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
    exchange.attributes.set(SESSION_ATTRIBUTE, Promise.resolve(session));
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
