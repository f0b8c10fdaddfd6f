import { ZERO_TRUST_ANALYSIS_MISSING_EVENT } from "../../authz/zerotrust/zero-trust-events.js";
import {
  ACCESS_DENIED_EVENT,
  type AccessDeniedPayload,
  SIGN_IN_COMPLETED_EVENT,
  type SignInCompletedPayload,
} from "../../identity/events/identity-events.js";
import type { Clock } from "../../kernel/clock.js";
import type { EventBus, PlatformEvent } from "../../kernel/event-bus.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import type { DecisionEvent, DecisionEventKind } from "./decision-event.js";
import { ANY_OTHER, decisionEventKindOf } from "./decision-event-mapping.js";
import { DenialCounter } from "./denial-counter.js";

type Submit = (event: DecisionEvent) => unknown;

// A factor type as the family allows it (upper snake case, 1-32 characters).
const FACTOR_TYPE = /^[A-Z][A-Z0-9_]{0,31}$/;

/**
 * Turns what the platform signals on the EventBus into DecisionEvents, by what happened
 * (DECISION_EVENT_MAPPING, printed in docs/security-decisions.md):
 * - `identity.SignInCompletedEvent`: a completed sign-in (password, OTT, passkey, an MFA flow),
 *   published only once the sign-in passed every gate;
 * - `mfa.ErrorEvent` with a user, by its code (never its error type: LIMIT_EXCEEDED is a lockout
 *   and a refused send alike): a wrong factor is a failure, the lockout threshold reached a lockout;
 *   a refused send, an expired or cancelled flow is no occasion. `mfa.StateChangeEvent` makes none;
 * - `identity.AccessDeniedEvent` of a signed-in caller, counted per user in a sliding window:
 *   `denials.threshold` of them make one REPEATED_DENIALS event. A denial that is zero trust's own
 *   answer (`ZERO_TRUST_*`) is not counted: the user is already decided;
 * - `zerotrust.analysis.missing` (a sampled request whose caller has no live action).
 * Each instance hears its own requests' signals only, so an event is decided once, where it happened.
 */
export class DecisionEventSources {
  private readonly denials: DenialCounter;

  constructor(
    private readonly o: {
      submit: Submit;
      events: EventBus;
      ids: IdGenerator;
      clock: Clock;
      denialsThreshold: number;
      denialsWindowMs: number;
    },
  ) {
    this.denials = new DenialCounter({ threshold: o.denialsThreshold, windowMs: o.denialsWindowMs });
  }

  /** Subscribes to the bus signals; returns the unsubscribe function. */
  subscribe(): () => void {
    const offs = [
      this.o.events.on("mfa.StateChangeEvent", (e) => this.onMfaState(e)),
      this.o.events.on("mfa.ErrorEvent", (e) => this.onMfaError(e)),
      this.o.events.on(ZERO_TRUST_ANALYSIS_MISSING_EVENT, (e) => this.onAnalysisMissing(e)),
      this.o.events.on(SIGN_IN_COMPLETED_EVENT, (e) => this.onSignIn(e)),
      this.o.events.on(ACCESS_DENIED_EVENT, (e) => this.onDenied(e)),
    ];
    return () => {
      for (const off of offs) off();
    };
  }

  private onSignIn(e: PlatformEvent<unknown>): void {
    const p = e.payload as Partial<SignInCompletedPayload> | undefined;
    if (typeof p?.userId !== "string") return;
    const method = text(p.method);
    const kind = decisionEventKindOf(SIGN_IN_COMPLETED_EVENT, ANY_OTHER);
    if (kind === undefined) return;
    this.emit(kind, {
      userId: p.userId,
      ...(typeof p.username === "string" ? { username: p.username } : {}),
      remoteAddress: text(p.remoteAddress),
      ...correlationOf(p),
      ...(method === undefined ? {} : { detail: { signInMethod: method.slice(0, 32) } }),
    });
  }

  private onDenied(e: PlatformEvent<unknown>): void {
    const p = e.payload as Partial<AccessDeniedPayload> | undefined;
    if (typeof p?.userId !== "string") return; // anonymous: nobody to decide about
    if (typeof p.code === "string" && p.code.startsWith("ZERO_TRUST_")) return;
    const at = this.o.clock.now();
    const count = this.denials.deny(p.userId, at);
    const kind = decisionEventKindOf(ACCESS_DENIED_EVENT, ANY_OTHER);
    if (count === undefined || kind === undefined) return;
    this.emit(kind, {
      userId: p.userId,
      ...(typeof p.username === "string" ? { username: p.username } : {}),
      at,
      remoteAddress: text(p.remoteAddress),
      method: text(p.method),
      target: text(p.path),
      ...correlationOf(p),
      detail: { denials: count, windowSeconds: Math.round(this.o.denialsWindowMs / 1000) },
    });
  }

  private onMfaState(e: PlatformEvent<unknown>): void {
    const p = e.payload as { userId?: unknown; toState?: unknown };
    if (typeof p?.userId !== "string") return;
    const kind = decisionEventKindOf("mfa.StateChangeEvent", p.toState);
    if (kind !== undefined) this.emit(kind, { userId: p.userId, detail: { mfaState: String(p.toState) } });
  }

  private onMfaError(e: PlatformEvent<unknown>): void {
    const p = e.payload as { userId?: unknown; code?: unknown; factor?: unknown };
    if (typeof p?.userId !== "string") return;
    // Keyed on the code: a refused send and a lockout share the error type LIMIT_EXCEEDED.
    const kind = decisionEventKindOf("mfa.ErrorEvent", p.code);
    if (kind === undefined) return;
    // Which factor failed or locked (a recovery code tried is not a mistyped e-mailed code): a factor
    // type only, never anything the client chose.
    const detail: Record<string, string> = { code: String(p.code).slice(0, 64) };
    if (typeof p.factor === "string" && FACTOR_TYPE.test(p.factor)) detail.factor = p.factor;
    this.emit(kind, { userId: p.userId, detail });
  }

  private onAnalysisMissing(e: PlatformEvent<unknown>): void {
    const p = e.payload as { userId?: unknown; username?: unknown; sessionHandle?: unknown };
    const kind = decisionEventKindOf(ZERO_TRUST_ANALYSIS_MISSING_EVENT, ANY_OTHER);
    if (typeof p?.userId !== "string" || kind === undefined) return;
    this.emit(kind, {
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

/** The signal's correlation id, when it is a short safe string (it came from a request), as a spread. */
function correlationOf(payload: { correlationId?: unknown }): { correlationId?: string } {
  const id = payload.correlationId;
  return typeof id === "string" && /^[A-Za-z0-9._-]{1,64}$/.test(id) ? { correlationId: id } : {};
}
