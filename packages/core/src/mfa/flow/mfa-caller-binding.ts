import type { IdGenerator } from "../../kernel/id-generator.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { CookieBinding } from "./cookie-binding.js";

/** The cookie that binds an MFA session to the browser or client that passed the primary step. */
export const MFA_BINDING_COOKIE = "PLATFORM_MFA";

/**
 * Binds an MFA session to its caller (`PLATFORM_MFA` = `<mfaSessionId>.<secret>`, only the hash
 * stored): a stolen or guessed `mfaSessionId` alone is refused.
 */
export class MfaCallerBinding extends CookieBinding {
  constructor(ids: IdGenerator) {
    super(ids, MFA_BINDING_COOKIE);
  }

  /** The MFA session id the caller's cookie names, if any. */
  sessionIdOf(exchange: HttpExchange): string | undefined {
    return this.idOf(exchange);
  }
}
