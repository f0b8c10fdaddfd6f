import type { HttpExchange } from "../../web/http-exchange.js";
import type { NextFilter, SecurityFilter } from "../chain/security-filter.js";
import { PASSKEY_PAGE_SCRIPT } from "./passkey-page-script.js";

/** Serves the passkey page's script at `GET <url>` (default `/webauthn/passkeys.js`) as `text/javascript`. */
export class PasskeyScriptFilter implements SecurityFilter {
  readonly name = "passkey-script";

  constructor(private readonly url: string) {}

  async filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    if (exchange.path !== this.url || (exchange.method !== "GET" && exchange.method !== "HEAD")) {
      return next();
    }
    const response = exchange.response;
    response.status = 200;
    response.headers.set("content-type", "text/javascript; charset=utf-8");
    response.headers.set("cache-control", "no-cache");
    response.body = PASSKEY_PAGE_SCRIPT;
    response.committed = true;
  }
}
