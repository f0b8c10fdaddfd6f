import { type Authentication, currentAuthentication } from "../../identity/authentication/authentication.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { correlationIdOf } from "../../web/correlation-id.js";
import type { HttpExchange } from "../../web/http-exchange.js";

/** The authority every prompt-inspection endpoint needs. */
export const INSPECTION_ADMIN_AUTHORITY = "ROLE_ADMIN";
/** Audit type of a call a non-administrator made to the inspection API. */
export const INSPECTION_ADMIN_DENIED = "inspection.admin.denied";

/**
 * The calling administrator; answers are `no-store` from here on. 401 AUTHENTICATION_REQUIRED
 * anonymous; 403 ACCESS_DENIED for a signed-in non-administrator, audited `inspection.admin.denied` first.
 */
export function inspectionAdmin(exchange: HttpExchange, audit: AuditSink): Authentication {
  exchange.response.headers.set("cache-control", "no-store");
  const authentication = currentAuthentication(exchange);
  if (!authentication) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
  if (authentication.authorities.includes(INSPECTION_ADMIN_AUTHORITY)) return authentication;
  try {
    audit.record({
      type: INSPECTION_ADMIN_DENIED,
      outcome: "denied",
      principal: authentication.username,
      remoteAddress: exchange.remoteAddress,
      correlationId: correlationIdOf(exchange),
      data: { method: exchange.method, path: exchange.path.slice(0, 256) },
    });
  } catch {
    // The refusal stands whatever the sink does.
  }
  throw new PlatformError("ACCESS_DENIED", "Only administrators can read prompt inspections");
}
