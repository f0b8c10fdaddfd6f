import type { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../authentication/authentication.js";
import type { CsrfTokenRepository } from "../csrf/csrf-token-repository.js";
import type { SessionManager } from "../session/session-manager.js";
import type { SecurityContextRepository } from "./security-context-repository.js";

const CONTEXT_KEY = "platform.securityContext";

/**
 * Keeps the authentication in the shared server session. Saving a new authentication rotates the
 * session id (session fixation) and the CSRF token (a token seen before sign-in dies); clearing it
 * invalidates the session and its cookie.
 */
export class HttpSessionSecurityContextRepository implements SecurityContextRepository {
  readonly name = "session";

  constructor(
    private readonly sessions: SessionManager,
    private readonly csrf: CsrfTokenRepository | undefined,
  ) {}

  // Plain, not async: the session manager's answer is the answer (no layer of its own per request);
  // once the request's session is known (the in-memory store answers at once), no promise at all.
  load(exchange: HttpExchange): Authentication | undefined | Promise<Authentication | undefined> {
    return this.sessions.getValueOrPending(exchange, CONTEXT_KEY, isAuthentication);
  }

  async save(exchange: HttpExchange, authentication: Authentication): Promise<void> {
    await this.sessions.rotate(exchange, authentication.userId);
    await this.sessions.setValue(exchange, CONTEXT_KEY, authentication);
    await this.csrf?.rotate(exchange);
  }

  async clear(exchange: HttpExchange): Promise<void> {
    await this.sessions.invalidate(exchange);
  }
}

function isAuthentication(value: unknown): value is Authentication {
  const a = value as Authentication | undefined;
  return typeof a === "object" && a !== null && typeof a.userId === "string" && Array.isArray(a.authorities);
}
