import { ZERO_TRUST_ANALYSIS_MISSING_EVENT } from "../../authz/zerotrust/zero-trust-events.js";
import type { AuditEvent } from "../../kernel/audit-sink.js";
import type { AuditLog } from "../../kernel/audit-log.js";
import type { Clock } from "../../kernel/clock.js";
import type { EventBus, PlatformEvent } from "../../kernel/event-bus.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import type { DecisionEvent, DecisionEventKind } from "./decision-event.js";
import { DenialCounter } from "./denial-counter.js";

/** The audit types read for events: completed primary sign-ins, and denials (policy and static rules). */
export const DECISION_AUDIT_SIGNALS = Object.freeze({
  signIn: "auth.login.success",
  denials: ["authz.denied", "http.access.denied"] as const,
});

/** Most audit records read per type and poll. */
const POLL_LIMIT = 1000;

type Submit = (event: DecisionEvent) => unknown;

/**
 * Turns what the platform already signals into DecisionEvents:
 * - EventBus (pushed): `mfa.StateChangeEvent` to MFA_SUCCESSFUL / MFA_NOT_REQUIRED (a completed
 *   sign-in), to MFA_FAILED_TERMINAL (an MFA failure) and to MFA_ACCOUNT_LOCKED (a lockout);
 *   `mfa.ErrorEvent` with a user (a failure; LIMIT_EXCEEDED a lockout); and
 *   `zerotrust.analysis.missing` (a sampled request whose caller has no live action).
 * - AuditLog (read every `audit-poll-interval`; the identity and authz modules only audit these):
 *   `auth.login.success` (a completed sign-in) and `authz.denied` / `http.access.denied`, counted per
 *   user in a sliding window; `denials.threshold` of them make one REPEATED_DENIALS event.
 * The audit read keeps a cursor (the last `at` seen and the records at that instant), so a record is
 * read once per process. Each instance reads the shared trail itself, so every instance decides an
 * audited event once (a lease that lets one instance read comes with the multi-instance work).
 */
export class DecisionEventSources {
  private cursor: number;
  private seenAtCursor = new Set<string>();
  private readonly denials: DenialCounter;

  constructor(
    private readonly o: {
      submit: Submit;
      events: EventBus;
      auditLog: AuditLog;
      ids: IdGenerator;
      clock: Clock;
      denialsThreshold: number;
      denialsWindowMs: number;
    },
  ) {
    this.cursor = o.clock.now();
    this.denials = new DenialCounter({ threshold: o.denialsThreshold, windowMs: o.denialsWindowMs });
  }

  /** Subscribes to the bus signals; returns the unsubscribe function. */
  subscribe(): () => void {
    const offs = [
      this.o.events.on("mfa.StateChangeEvent", (e) => this.onMfaState(e)),
      this.o.events.on("mfa.ErrorEvent", (e) => this.onMfaError(e)),
      this.o.events.on(ZERO_TRUST_ANALYSIS_MISSING_EVENT, (e) => this.onAnalysisMissing(e)),
    ];
    return () => {
      for (const off of offs) off();
    };
  }

  /** Reads the audit records written since the last read and submits their events. */
  async pollAudit(): Promise<void> {
    const since = this.cursor;
    const types = [DECISION_AUDIT_SIGNALS.signIn, ...DECISION_AUDIT_SIGNALS.denials];
    const read = await Promise.all(
      types.map((type) => this.o.auditLog.query({ type, since, limit: POLL_LIMIT })),
    );
    const fresh = read
      .flat()
      .filter((r) => !this.seenAtCursor.has(fingerprint(r)))
      .sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
    if (fresh.length === 0) return;
    const last = fresh[fresh.length - 1]!.at ?? since;
    if (last > this.cursor) {
      this.cursor = last;
      this.seenAtCursor = new Set();
    }
    for (const r of fresh) {
      if ((r.at ?? 0) === this.cursor) this.seenAtCursor.add(fingerprint(r));
      this.onAudit(r);
    }
  }

  private onAudit(r: AuditEvent): void {
    const username = r.principal;
    if (username === undefined || username === "") return;
    const data = r.data ?? {};
    const at = r.at ?? this.o.clock.now();
    if (r.type === DECISION_AUDIT_SIGNALS.signIn) {
      const signInMethod = text(data.method);
      this.emit("SIGN_IN_COMPLETED", {
        username,
        at,
        remoteAddress: r.remoteAddress,
        ...(signInMethod === undefined ? {} : { detail: { signInMethod: signInMethod.slice(0, 32) } }),
      });
      return;
    }
    const count = this.denials.deny(username, at);
    if (count === undefined) return;
    this.emit("REPEATED_DENIALS", {
      username,
      at,
      remoteAddress: r.remoteAddress,
      method: text(data.action),
      target: text(data.uri),
      detail: { denials: count, windowSeconds: Math.round(this.o.denialsWindowMs / 1000) },
    });
  }

  private onMfaState(e: PlatformEvent<unknown>): void {
    const p = e.payload as { userId?: unknown; toState?: unknown; flow?: unknown };
    if (typeof p?.userId !== "string") return;
    const kind: DecisionEventKind | undefined =
      p.toState === "MFA_SUCCESSFUL" || p.toState === "MFA_NOT_REQUIRED"
        ? "SIGN_IN_COMPLETED"
        : p.toState === "MFA_FAILED_TERMINAL"
          ? "MFA_FAILURE"
          : p.toState === "MFA_ACCOUNT_LOCKED"
            ? "MFA_LOCKOUT"
            : undefined;
    if (kind !== undefined) this.emit(kind, { userId: p.userId, detail: { mfaState: String(p.toState) } });
  }

  private onMfaError(e: PlatformEvent<unknown>): void {
    const p = e.payload as { userId?: unknown; errorType?: unknown; code?: unknown };
    if (typeof p?.userId !== "string") return;
    const kind = p.errorType === "LIMIT_EXCEEDED" ? "MFA_LOCKOUT" : "MFA_FAILURE";
    this.emit(kind, { userId: p.userId, detail: { code: String(p.code ?? "UNKNOWN").slice(0, 64) } });
  }

  private onAnalysisMissing(e: PlatformEvent<unknown>): void {
    const p = e.payload as { userId?: unknown; username?: unknown; sessionHandle?: unknown };
    if (typeof p?.userId !== "string") return;
    this.emit("REQUEST_SAMPLED", {
      userId: p.userId,
      ...(typeof p.username === "string" ? { username: p.username } : {}),
      ...(typeof p.sessionHandle === "string" ? { sessionHandle: p.sessionHandle } : {}),
    });
  }

  private emit(
    kind: DecisionEventKind,
    fields: Omit<DecisionEvent, "id" | "kind" | "at"> & { at?: number },
  ): void {
    const event: Record<string, unknown> = { id: this.o.ids.id(), kind, at: fields.at ?? this.o.clock.now() };
    for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== "") event[k] = v;
    this.o.submit(event as unknown as DecisionEvent);
  }
}

function text(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v.slice(0, 512) : undefined;
}

function fingerprint(r: AuditEvent): string {
  return JSON.stringify([r.type, r.at, r.principal, r.remoteAddress, r.data]);
}
