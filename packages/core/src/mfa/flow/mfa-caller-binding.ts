import type { IdGenerator } from "../../kernel/id-generator.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { CookieBinding } from "./cookie-binding.js";

/** The cookie that binds an MFA session to the browser or client that passed the primary step. */
export const MFA_BINDING_COOKIE = "PLATFORM_MFA";

/**
 * The header an API client (no cookies) sends instead of the cookie: the same `<mfaSessionId>.<secret>`,
 * handed out as `mfaBinding` in the JSON answers of token (`.oauth2()`) flows and bearer step-ups.
 */
export const MFA_BINDING_HEADER = "X-MFA-Binding";

/**
 * Binds an MFA session to its caller (`PLATFORM_MFA` = `<mfaSessionId>.<secret>`, only the hash
 * stored): a stolen or guessed `mfaSessionId` alone is refused. `X-MFA-Binding` carries the same value
 * for clients without cookies, under the same checks; a header and a cookie that disagree match nothing.
 */
export class MfaCallerBinding extends CookieBinding {
  constructor(ids: IdGenerator) {
    super(ids, MFA_BINDING_COOKIE, MFA_BINDING_HEADER.toLowerCase());
  }

  /** The MFA session id the caller's binding (header, else cookie) names, if any. */
  sessionIdOf(exchange: HttpExchange): string | undefined {
    return this.idOf(exchange);
  }
}
