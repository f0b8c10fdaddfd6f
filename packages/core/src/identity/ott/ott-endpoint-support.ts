import type { AuditEvent, AuditSink } from "../../kernel/audit-sink.js";
import { PlatformError } from "../../kernel/platform-error.js";

/** Longest username the OTT endpoints accept, as the password login does. */
export const MAX_OTT_USERNAME_LENGTH = 256;
/** Longest token value the OTT login accepts (the built-in tokens have 43 characters). */
export const MAX_OTT_TOKEN_LENGTH = 512;

/** Records an audit event; a sink that throws anyway must not change the outcome of a request. */
export function recordSafely(audit: AuditSink, event: AuditEvent): void {
  try {
    audit.record(event);
  } catch {
    // AuditSink.record must not throw; if one does, the request's own outcome stands.
  }
}

/** A submitted username as the audit shows it: a string cut to 256 units (not mid-pair), else none. */
export function auditPrincipal(username: unknown): string | undefined {
  if (typeof username !== "string") return undefined;
  if (username.length <= MAX_OTT_USERNAME_LENGTH) return username;
  const cut = username.slice(0, MAX_OTT_USERNAME_LENGTH);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** TOO_MANY_ATTEMPTS (429) with `retryAfterSeconds` (at least 1) for the `Retry-After` header. */
export function tooManyAttempts(message: string, retryAfterMs: number): PlatformError {
  return new PlatformError("TOO_MANY_ATTEMPTS", message, {
    details: { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) },
  });
}
