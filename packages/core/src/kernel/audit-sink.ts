import type { InjectionToken } from "tsyringe";

/** One security-relevant fact: who did what, to what, with which outcome. */
export interface AuditEvent {
  /** Dotted type, e.g. `auth.login.success`, `policy.updated`. */
  type: string;
  /** Epoch milliseconds (filled from the Clock when absent). */
  at?: number;
  /** Username or system actor; never a secret. */
  principal?: string;
  outcome?: "success" | "failure" | "denied" | "info";
  remoteAddress?: string;
  correlationId?: string;
  /** Extra, non-secret data. */
  data?: Record<string, unknown>;
}

/**
 * Where audit events go. `record` must never block or throw into the caller: an audit backlog or a
 * broken sink must not take logins down with it.
 */
export interface AuditSink {
  record(event: AuditEvent): void;
}

/** DI token of the AuditSink port. */
export const AuditSink: InjectionToken<AuditSink> = Symbol.for("platform.AuditSink");
