import { createHash } from "node:crypto";
import { constantTimeEquals } from "../../identity/csrf/constant-time-equals.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import type { HttpExchange } from "../../web/http-exchange.js";

/** The cookie that binds an MFA session to the browser or client that passed the primary step. */
export const MFA_BINDING_COOKIE = "PLATFORM_MFA";

/**
 * Binds an MFA session to its caller: at the primary step the cookie `<mfaSessionId>.<secret>` is
 * set (HttpOnly, SameSite=Strict) and only the secret's hash is stored in the FactorContext. Every MFA
 * request must bring the cookie; a stolen or guessed `mfaSessionId` alone is refused.
 */
export class MfaCallerBinding {
  constructor(private readonly ids: IdGenerator) {}

  /** Issues a new binding for this MFA session (sets the cookie) and returns the hash to store. */
  bind(exchange: HttpExchange, mfaSessionId: string, maxAgeSeconds: number): string {
    const secret = this.ids.secret(32);
    exchange.setCookie({
      name: MFA_BINDING_COOKIE,
      value: `${mfaSessionId}.${secret}`,
      httpOnly: true,
      secure: exchange.secure,
      sameSite: "Strict",
      path: "/",
      maxAge: maxAgeSeconds,
    });
    return hash(secret);
  }

  /** The MFA session id the caller's cookie names, if any. */
  sessionIdOf(exchange: HttpExchange): string | undefined {
    return split(exchange.cookie(MFA_BINDING_COOKIE))?.id;
  }

  /** True when the caller's cookie names this MFA session and carries the secret whose hash was stored. */
  matches(exchange: HttpExchange, mfaSessionId: string, stored: string): boolean {
    const parts = split(exchange.cookie(MFA_BINDING_COOKIE));
    if (!parts || !constantTimeEquals(parts.id, mfaSessionId)) return false;
    return constantTimeEquals(hash(parts.secret), stored);
  }

  /** Clears the cookie (the flow ended). */
  clear(exchange: HttpExchange): void {
    exchange.setCookie({
      name: MFA_BINDING_COOKIE,
      value: "",
      maxAge: 0,
      path: "/",
      httpOnly: true,
      sameSite: "Strict",
    });
  }
}

function split(value: string | undefined): { id: string; secret: string } | undefined {
  if (!value || value.length > 200) return undefined;
  const dot = value.indexOf(".");
  if (dot <= 0 || dot === value.length - 1) return undefined;
  return { id: value.slice(0, dot), secret: value.slice(dot + 1) };
}

function hash(secret: string): string {
  return createHash("sha256").update(secret).digest("base64url");
}
