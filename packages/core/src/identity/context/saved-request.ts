import type { HttpExchange } from "../../web/http-exchange.js";
import { currentAuthentication } from "../authentication/authentication.js";
import { isLocalPath, savedRequestKey } from "../handlers/redirect-target.js";
import type { SessionManager } from "../session/session-manager.js";
import { isSavableNavigation } from "./savable-navigation.js";

/** The session key of where a signed-in user's step-up brings them back (with whose it is). */
const STEP_UP_RETURN = "platform.stepUpReturn";

/**
 * Saves and takes the URL a browser asked for before the login page, in its session: only a
 * top-level HTML page navigation to a local path (`isSavableNavigation`, `isLocalPath`), never an
 * icon, script, style, image or well-known resource the page pulled in.
 */
export class SessionSavedRequest {
  constructor(private readonly sessions: SessionManager) {}

  /** Remembers a local URL of a page navigation (anything else is ignored, and keeps what was saved). */
  save = async (exchange: HttpExchange, url: string): Promise<void> => {
    if (isLocalPath(url) && isSavableNavigation(exchange, url))
      await this.sessions.setValue(exchange, savedRequestKey(), url);
  };

  /**
   * Remembers, for the signed-in user of the request only, where their step-up should bring them
   * back: a page navigation sent to the challenge (`isSavableNavigation`), or a page a form names.
   * Kept apart from the login's saved request: another user signing in later in the same browser
   * never lands there.
   */
  saveStepUpReturn = async (exchange: HttpExchange, url: string, navigation = true): Promise<void> => {
    const who = currentAuthentication(exchange);
    if (!who || !isLocalPath(url) || (navigation && !isSavableNavigation(exchange, url))) return;
    await this.sessions.setValue(exchange, STEP_UP_RETURN, { url, userId: who.userId });
  };

  /** Returns and forgets where `userId`'s step-up goes back to; another user's is forgotten, not returned. */
  takeStepUpReturn = async (exchange: HttpExchange, userId: string): Promise<string | undefined> => {
    const saved = (await this.sessions.getValue(exchange, STEP_UP_RETURN)) as
      | { url?: unknown; userId?: unknown }
      | undefined;
    if (saved === undefined) return undefined;
    await this.sessions.removeValue(exchange, STEP_UP_RETURN);
    return saved.userId === userId && isLocalPath(saved.url) ? saved.url : undefined;
  };

  /** Returns and forgets the remembered URL. */
  take = async (exchange: HttpExchange): Promise<string | undefined> => {
    const url = await this.sessions.getValue(exchange, savedRequestKey());
    if (url !== undefined) await this.sessions.removeValue(exchange, savedRequestKey());
    return isLocalPath(url) ? url : undefined;
  };
}
