import { currentAuthentication } from "../../identity/authentication/authentication.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { correlationIdOf } from "../../web/correlation-id.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { GovernanceActor } from "../release-governance.js";

/** The authority every release screen and endpoint needs (prompt-governance.md, "Authentication" 1). */
export const RELEASE_ADMIN_AUTHORITY = "ROLE_ADMIN";

/** Audit type of a call a non-administrator made to the release API or page. */
export const RELEASE_ADMIN_DENIED = "release.admin.denied";

/**
 * The calling administrator as the governance services' actor: the authenticated principal's name
 * (never a body field), the request's correlation id and address. Answers are `no-store` from here
 * on. An anonymous caller is AUTHENTICATION_REQUIRED (401; the chain sends a browser to sign in); a
 * signed-in non-administrator ACCESS_DENIED (403), recorded as `release.admin.denied` first.
 */
export function releaseAdmin(exchange: HttpExchange, audit: AuditSink): GovernanceActor {
  exchange.response.headers.set("cache-control", "no-store");
  const authentication = currentAuthentication(exchange);
  if (!authentication) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
  const correlationId = correlationIdOf(exchange);
  if (!authentication.authorities.includes(RELEASE_ADMIN_AUTHORITY)) {
    try {
      audit.record({
        type: RELEASE_ADMIN_DENIED,
        outcome: "denied",
        principal: authentication.username,
        remoteAddress: exchange.remoteAddress,
        correlationId,
        data: { method: exchange.method, path: exchange.path.slice(0, 256) },
      });
    } catch {
      // The refusal stands whatever the sink does.
    }
    throw new PlatformError("ACCESS_DENIED", "Only administrators can manage prompt releases");
  }
  return { username: authentication.username, correlationId, remoteAddress: exchange.remoteAddress };
}
