import { createHash } from "node:crypto";
import { constantTimeEquals } from "../../identity/csrf/constant-time-equals.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import type { HttpExchange } from "../../web/http-exchange.js";

/** The cookie that binds an escalated login to the browser or client whose login was held. */
export const ESCALATION_BINDING_COOKIE = "PLATFORM_ESCALATION";

/**
 * Binds an escalation to its caller, as MfaCallerBinding does for MFA sessions: the cookie
 * `<escalationId>.<secret>` is set (HttpOnly, SameSite=Strict) and only the secret's hash is stored.
 * Polling needs the cookie, so an approval signs in the client that was held, not whoever learns the id.
 */
export class EscalationCallerBinding {
  constructor(private readonly ids: IdGenerator) {}

  /** Issues a new binding for this escalation (sets the cookie) and returns the hash to store. */
  bind(exchange: HttpExchange, escalationId: string, maxAgeSeconds: number): string {
    const secret = this.ids.secret(32);
    exchange.setCookie({
      name: ESCALATION_BINDING_COOKIE,
      value: `${escalationId}.${secret}`,
      httpOnly: true,
      secure: exchange.secure,
      sameSite: "Strict",
      path: "/",
      maxAge: maxAgeSeconds,
    });
    return hash(secret);
  }

  /** The escalation id the caller's cookie names, if any. */
  escalationIdOf(exchange: HttpExchange): string | undefined {
    return split(exchange.cookie(ESCALATION_BINDING_COOKIE))?.id;
  }

  /** True when the caller's cookie names this escalation and carries the secret whose hash was stored. */
  matches(exchange: HttpExchange, escalationId: string, stored: string): boolean {
    const parts = split(exchange.cookie(ESCALATION_BINDING_COOKIE));
    if (!parts || !constantTimeEquals(parts.id, escalationId)) return false;
    return constantTimeEquals(hash(parts.secret), stored);
  }

  /** Clears the cookie (the escalation ended for this caller). */
  clear(exchange: HttpExchange): void {
    exchange.setCookie({
      name: ESCALATION_BINDING_COOKIE,
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

function hash(secret: string): string {
  return createHash("sha256").update(secret).digest("base64url");
}
