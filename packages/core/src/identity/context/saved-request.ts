import type { HttpExchange } from "../../web/http-exchange.js";
import { isLocalPath, savedRequestKey } from "../handlers/redirect-target.js";
import type { SessionManager } from "../session/session-manager.js";

/** Saves and takes the URL a browser asked for before the login page, in its session. */
export class SessionSavedRequest {
  constructor(private readonly sessions: SessionManager) {}

  /** Remembers a local URL (anything else is ignored). */
  save = async (exchange: HttpExchange, url: string): Promise<void> => {
    if (isLocalPath(url)) await this.sessions.setValue(exchange, savedRequestKey(), url);
  };

  /** Returns and forgets the remembered URL. */
  take = async (exchange: HttpExchange): Promise<string | undefined> => {
    const url = await this.sessions.getValue(exchange, savedRequestKey());
    if (url !== undefined) await this.sessions.removeValue(exchange, savedRequestKey());
    return isLocalPath(url) ? url : undefined;
  };
}
