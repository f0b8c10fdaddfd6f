import { createHash } from "node:crypto";
import { constantTimeEquals } from "../../identity/csrf/constant-time-equals.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import type { HttpExchange } from "../../web/http-exchange.js";

/**
 * Binds a server-side record (an MFA session, an escalation) to the client that started it: the
 * cookie `<id>.<secret>` is set (HttpOnly, SameSite=Strict, Secure on https) and only the secret's
 * SHA-256 is stored with the record. A request must bring the cookie; knowing the id alone is not
 * enough. Id and hash are compared in constant time.
 */
export class CookieBinding {
  constructor(
    private readonly ids: IdGenerator,
    /** The cookie's name. */
    readonly cookieName: string,
  ) {}

  /** Issues a new binding for the record (sets the cookie) and returns the hash to store. */
  bind(exchange: HttpExchange, id: string, maxAgeSeconds: number): string {
    const secret = this.ids.secret(32);
    exchange.setCookie({
      name: this.cookieName,
      value: `${id}.${secret}`,
      httpOnly: true,
      secure: exchange.secure,
      sameSite: "Strict",
      path: "/",
      maxAge: maxAgeSeconds,
    });
    return hashOf(secret);
  }

  /** The record id the caller's cookie names, if any. */
  idOf(exchange: HttpExchange): string | undefined {
    return split(exchange.cookie(this.cookieName))?.id;
  }

  /** True when the caller's cookie names this record and carries the secret whose hash was stored. */
  matches(exchange: HttpExchange, id: string, stored: string): boolean {
    const parts = split(exchange.cookie(this.cookieName));
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
