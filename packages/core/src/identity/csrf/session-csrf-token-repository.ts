import type { IdGenerator } from "../../kernel/id-generator.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { SessionManager } from "../session/session-manager.js";
import type { CsrfTokenRepository } from "./csrf-token-repository.js";

/** Default session data key of the CSRF token. */
export const DEFAULT_CSRF_SESSION_KEY = "platform.csrf.token";

/** Options of the SessionCsrfTokenRepository. */
export interface SessionCsrfTokenRepositoryOptions {
  /** The session the token lives in (synchronizer-token pattern). */
  sessions: SessionManager;
  /** Makes tokens: `ids.secret(32)`, 256 random bits, base64url. */
  ids: IdGenerator;
  /** Session data key of the token (default `platform.csrf.token`). */
  sessionKey?: string;
}

/**
 * The default CsrfTokenRepository: keeps one CSRF token per session, in the session's data. Reading never creates a session, so a
 * request that fails the check leaves nothing behind; pages create the token lazily when they render it.
 */
export class SessionCsrfTokenRepository implements CsrfTokenRepository {
  private readonly sessions: SessionManager;
  private readonly ids: IdGenerator;
  private readonly sessionKey: string;

  constructor(options: SessionCsrfTokenRepositoryOptions) {
    this.sessions = options.sessions;
    this.ids = options.ids;
    this.sessionKey = options.sessionKey ?? DEFAULT_CSRF_SESSION_KEY;
  }

  /** The session's token, or undefined without a session or token (creates neither). */
  async load(exchange: HttpExchange): Promise<string | undefined> {
    const value = await this.sessions.getValue(exchange, this.sessionKey);
    return typeof value === "string" && value.length > 0 ? value : undefined;
  }

  /** The session's token, creating the session and the token when missing. */
  async loadOrCreate(exchange: HttpExchange): Promise<string> {
    return (await this.load(exchange)) ?? this.rotate(exchange);
  }

  /** Replaces the token with a fresh one (call after login, so a token seen before sign-in is dead). */
  async rotate(exchange: HttpExchange): Promise<string> {
    const token = this.ids.secret(32);
    await this.sessions.setValue(exchange, this.sessionKey, token);
    return token;
  }
}
