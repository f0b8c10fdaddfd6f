import { type Authentication, currentAuthentication } from "../../identity/authentication/authentication.js";
import type { SessionStore } from "../../identity/session/session-store.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { requireFreshSecondFactor, type StepUpStarter } from "../step-up/fresh-second-factor.js";
import { currentSessionHandle } from "./account-overview.js";

/** A session handle as `sessionStoreHandle` makes it: a SHA-256 in base64url, 43 characters. */
const HANDLE = /^[A-Za-z0-9_-]{43}$/;

/** What ending sessions from the account reads. */
export interface AccountSessionsOptions {
  sessions: SessionStore;
  /** The session cookie's name (the caller's own session is never ended here: logout does that). */
  sessionCookie: string;
  audit: AuditSink;
  clock: Clock;
  /** A second factor proved within this long is fresh (milliseconds). */
  stepUpMaxAgeMs: number;
  startStepUp: StepUpStarter;
}

/**
 * The signed-in user ends their own other sessions: one by its handle, or every one but the
 * caller's. Each needs a fresh second factor (else 401 `MFA_CHALLENGE_REQUIRED` with a started
 * step-up) and is audited (`account.sessions.ended`, with how many). The caller's own session is
 * refused (409 `SESSION_IS_CURRENT`: sign out instead); a handle of another user's session is 404
 * `NOT_FOUND`, as an unknown one. A bearer caller has no session of its own, so "the others" are all.
 * Ending a session ends that browser's sign-in at its next request; tokens are not sessions and stay.
 */
export class AccountSessions {
  constructor(private readonly o: AccountSessionsOptions) {}

  /** Ends the caller's session named by `handle` (a string the caller sent; checked here). */
  async endOne(exchange: HttpExchange, handle: unknown): Promise<void> {
    signedIn(exchange);
    if (typeof handle !== "string" || !HANDLE.test(handle)) {
      throw new PlatformError("VALIDATION_FAILED", "handle must be a session handle from GET /api/account", {
        details: { field: "handle" },
      });
    }
    const who = await this.fresh(exchange);
    if (handle === currentSessionHandle(exchange, this.o.sessionCookie)) {
      throw new PlatformError("SESSION_IS_CURRENT", "This is the session you are using: sign out to end it");
    }
    if (!(await this.o.sessions.deleteByHandle(who.userId, handle))) {
      throw new PlatformError("NOT_FOUND", "No open session of yours has that handle");
    }
    this.audit(exchange, who, "one", 1);
  }

  /** Ends every session of the caller but the one they use; how many were ended. */
  async endOthers(exchange: HttpExchange): Promise<number> {
    signedIn(exchange);
    const who = await this.fresh(exchange);
    const kept = currentSessionHandle(exchange, this.o.sessionCookie);
    const ended = await this.o.sessions.deleteByUserExcept(who.userId, kept);
    this.audit(exchange, who, "others", ended);
    return ended;
  }

  private fresh(exchange: HttpExchange): Promise<Authentication> {
    return requireFreshSecondFactor(exchange, {
      clock: this.o.clock,
      maxAgeMs: this.o.stepUpMaxAgeMs,
      startStepUp: this.o.startStepUp,
    });
  }

  private audit(exchange: HttpExchange, who: Authentication, scope: "one" | "others", count: number): void {
    this.o.audit.record({
      type: "account.sessions.ended",
      principal: who.username,
      outcome: "success",
      remoteAddress: exchange.remoteAddress,
      data: { scope, count },
    });
  }
}

/** 401 AUTHENTICATION_REQUIRED for an anonymous caller, before any input is judged. */
function signedIn(exchange: HttpExchange): void {
  if (!currentAuthentication(exchange)) {
    throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
  }
}
