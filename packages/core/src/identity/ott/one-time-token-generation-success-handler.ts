import type { HttpExchange } from "../../web/http-exchange.js";
import type { OneTimeToken } from "./one-time-token-service.js";

/**
 * Called after a generation request (the `.ott()` option `tokenGenerationSuccessHandler`): delivers the
 * token and answers the request. The generate filter calls `handle` when it made a token and
 * `acknowledge` when it did not (unknown, locked or disabled account); both must answer the client
 * identically (status, headers, body, cookies), or the answers tell which usernames have accounts.
 */
export interface OneTimeTokenGenerationSuccessHandler {
  /** Delivers `token` (its value: `token.getTokenValue()`) and answers the request. */
  handle(exchange: HttpExchange, token: OneTimeToken): Promise<void>;
  /** Answers a request that made no token exactly as `handle` would have, delivering nothing. */
  acknowledge(exchange: HttpExchange): Promise<void>;
}

/** The message of the generation answer: the same whether or not the account exists. */
export const OTT_GENERATION_MESSAGE = "If the account exists, a sign-in link has been sent";

/**
 * The built-in generation answer: JSON clients get 200 `{ success: true, message, submitPageUrl }`,
 * browsers a 302 to `<submitPageUrl>?sent`; never cached.
 */
export function writeGenerationAnswer(exchange: HttpExchange, submitPageUrl: string): void {
  exchange.response.headers.set("cache-control", "no-store");
  if (exchange.wantsJson()) {
    exchange.json(200, { success: true, message: OTT_GENERATION_MESSAGE, submitPageUrl });
  } else {
    exchange.redirect(`${submitPageUrl}?sent`);
  }
}
