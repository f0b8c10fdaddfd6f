import type { HttpExchange } from "../../web/http-exchange.js";
import { isLocalPath, savedRequestKey } from "../handlers/redirect-target.js";
import type { SessionManager } from "../session/session-manager.js";
import { isSavableNavigation } from "./savable-navigation.js";

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

  /** Returns and forgets the remembered URL. */
  take = async (exchange: HttpExchange): Promise<string | undefined> => {
    const url = await this.sessions.getValue(exchange, savedRequestKey());
    if (url !== undefined) await this.sessions.removeValue(exchange, savedRequestKey());
    return isLocalPath(url) ? url : undefined;
  };
}
