import { type Authentication, currentAuthentication } from "../../identity/authentication/authentication.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { DECISIONS_AUDIT } from "../pipeline/decisions-audit.js";

/** The authority the decisions' admin endpoints need. */
export const SECURITY_DECISIONS_AUTHORITY = "ROLE_ADMIN";

/**
 * The calling administrator of a decisions admin endpoint; answers are `no-store` from here on. 401
 * AUTHENTICATION_REQUIRED anonymous, 403 ACCESS_DENIED (audited `decision.admin.denied`) otherwise:
 * the endpoints check it themselves, their paths being under no chain's admin rule.
 */
export function decisionsAdmin(exchange: HttpExchange, audit: AuditSink): Authentication {
  exchange.response.headers.set("cache-control", "no-store");
  const authentication = currentAuthentication(exchange);
  if (!authentication) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
  if (authentication.authorities.includes(SECURITY_DECISIONS_AUTHORITY)) return authentication;
  try {
    audit.record({
      type: DECISIONS_AUDIT.adminDenied,
      outcome: "denied",
      principal: authentication.username,
      remoteAddress: exchange.remoteAddress,
      data: { method: exchange.method, path: exchange.path.slice(0, 256) },
    });
  } catch {
    // The refusal stands whatever the sink does.
  }
  throw new PlatformError("ACCESS_DENIED", "Only administrators can read security decisions");
}
