import type { IdGenerator } from "../../kernel/id-generator.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { CookieBinding } from "../flow/cookie-binding.js";
import { MFA_BINDING_HEADER } from "../flow/mfa-caller-binding.js";

/** The cookie that binds an escalated login to the browser or client whose login was held. */
export const ESCALATION_BINDING_COOKIE = "PLATFORM_ESCALATION";

/**
 * Binds an escalation to its caller, as MfaCallerBinding does for MFA sessions: polling needs the
 * cookie (or, for a client without cookies, the same value in `X-MFA-Binding`), so an approval signs
 * in the client that was held, not whoever learns the id.
 */
export class EscalationCallerBinding extends CookieBinding {
  constructor(ids: IdGenerator) {
    super(ids, ESCALATION_BINDING_COOKIE, MFA_BINDING_HEADER.toLowerCase());
  }

  /** The escalation id the caller's cookie names, if any. */
  escalationIdOf(exchange: HttpExchange): string | undefined {
    return this.idOf(exchange);
  }
}
