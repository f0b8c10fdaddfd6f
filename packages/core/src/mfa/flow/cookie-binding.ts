import { createHash } from "node:crypto";
import { constantTimeEquals } from "../../identity/csrf/constant-time-equals.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import type { HttpExchange } from "../../web/http-exchange.js";

/** A new binding: what the record stores (the secret's hash) and what its caller presents. */
export interface IssuedBinding {
  /** The SHA-256 of the secret (base64url), stored with the record. */
  stored: string;
  /** `<id>.<secret>`: the cookie's value, and what an API client sends in the binding header. */
  value: string;
}

/**
 * Binds a server-side record (an MFA session, an escalation) to the client that started it: the
 * cookie `<id>.<secret>` is set (HttpOnly, SameSite=Strict, Secure on https) and only the secret's
 * SHA-256 is stored with the record. A request must bring the cookie; knowing the id alone is not
 * enough. Id and hash are compared in constant time.
 *
 * With a `headerName`, a client that keeps no cookies (an API client) may present the same value in
 * that header instead. Without the header the cookie alone counts, as before; a header and a cookie
 * that disagree match nothing (two clients' bindings in one request are never guessed between).
 */
export class CookieBinding {
  constructor(
    private readonly ids: IdGenerator,
    /** The cookie's name. */
    readonly cookieName: string,
    /** The request header that may carry the cookie's value instead (lower case), if any. */
    readonly headerName?: string,
  ) {}

  /** Issues a new binding for the record (sets the cookie) and returns the hash to store. */
  bind(exchange: HttpExchange, id: string, maxAgeSeconds: number): string {
    return this.issue(exchange, id, maxAgeSeconds).stored;
  }

  /** Issues a new binding (sets the cookie): the hash to store and the value the caller presents. */
  issue(exchange: HttpExchange, id: string, maxAgeSeconds: number): IssuedBinding {
    const secret = this.ids.secret(32);
    const value = `${id}.${secret}`;
    exchange.setCookie({
      name: this.cookieName,
      value,
      httpOnly: true,
      secure: exchange.secure,
      sameSite: "Strict",
      path: "/",
      maxAge: maxAgeSeconds,
    });
    return { stored: hashOf(secret), value };
  }

  /** The record id the caller's binding (header, else cookie) names, if any. */
  idOf(exchange: HttpExchange): string | undefined {
    const presented = this.presented(exchange);
    return presented.conflict ? undefined : split(presented.value)?.id;
  }

  /** True when the request carries both the header and the cookie and they differ. */
  conflicts(exchange: HttpExchange): boolean {
    return this.presented(exchange).conflict;
  }

  /** True when the caller's binding names this record and carries the secret whose hash was stored. */
  matches(exchange: HttpExchange, id: string, stored: string): boolean {
    const presented = this.presented(exchange);
    if (presented.conflict) return false;
    const parts = split(presented.value);
    if (!parts || !constantTimeEquals(parts.id, id)) return false;
    return constantTimeEquals(hashOf(parts.secret), stored);
  }

  /** Clears the cookie (the record ended for this caller). */
  clear(exchange: HttpExchange): void {
    exchange.setCookie({
      name: this.cookieName,
      value: "",
      maxAge: 0,
      path: "/",
      httpOnly: true,
      secure: exchange.secure,
      sameSite: "Strict",
    });
  }

  /** The binding the request presents: the header when sent, else the cookie. */
  private presented(exchange: HttpExchange): { value: string | undefined; conflict: boolean } {
    const cookie = exchange.cookie(this.cookieName) || undefined;
    const header = (this.headerName && exchange.header(this.headerName)) || undefined;
    if (header === undefined) return { value: cookie, conflict: false };
    if (cookie === undefined) return { value: header, conflict: false };
    return { value: header, conflict: !constantTimeEquals(header, cookie) };
  }
}

// Ids are base64url, so the first dot separates id and secret.
function split(value: string | undefined): { id: string; secret: string } | undefined {
  if (!value || value.length > 200) return undefined;
  const dot = value.indexOf(".");
  if (dot <= 0 || dot === value.length - 1) return undefined;
  return { id: value.slice(0, dot), secret: value.slice(dot + 1) };
}

function hashOf(secret: string): string {
  return createHash("sha256").update(secret).digest("base64url");
}
