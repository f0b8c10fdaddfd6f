import type { Authentication } from "../../identity/authentication/authentication.js";
import type { MfaEvent } from "../state/mfa-event.js";
import type { FactorContext } from "../state/factor-context.js";
import type { MfaState } from "../state/mfa-state.js";
import type { MfaErrorEventCode, MfaErrorType } from "../events/mfa-state-machine-events.js";
import type { MfaRuntimeOptions } from "./mfa-runtime-options.js";

/** What an audit event takes from the request that caused it: its correlation id (see `correlated`). */
export interface AuditOrigin {
  readonly correlationId?: string;
}

/** The ports the runtime reports through: the MFA event channel, the audit trail and the clock. */
export type MfaRuntimeEventsOptions = Pick<
  MfaRuntimeOptions,
  "events" | "audit" | "clock" | "performanceAlertMs"
>;

/**
 * What the MFA runtime tells the outside world: state changes, errors, custom and performance-alert
 * events, and audit records. Reads the options lazily, so it sees the runtime's options as they are.
 */
export class MfaRuntimeEvents {
  constructor(private readonly o: MfaRuntimeEventsOptions) {}

  /** Publishes the StateChangeEvent of a step that took `ctx` from `fromState` on `event`. */
  async stateChanged(ctx: FactorContext, fromState: MfaState, event: MfaEvent): Promise<void> {
    await this.o.events.publish({
      type: "StateChangeEvent",
      userId: ctx.userId,
      mfaSessionId: ctx.mfaSessionId,
      flow: ctx.flowTypeName,
      fromState,
      toState: ctx.state,
      event,
      at: this.o.clock.now(),
    });
  }

  /** Publishes an ErrorEvent (the API layer reports limits and system errors it meets). */
  async reportError(
    errorType: MfaErrorType,
    code: MfaErrorEventCode,
    message: string,
    userId?: string,
    mfaSessionId?: string,
    factor?: string,
  ): Promise<void> {
    await this.o.events.publish({
      type: "ErrorEvent",
      errorType,
      code,
      message,
      userId,
      mfaSessionId,
      ...(factor === undefined ? {} : { factor }),
      at: this.o.clock.now(),
    });
  }

  /** Publishes a host's CustomEvent through the MFA event channel. */
  async publishCustom(name: string, payload: Record<string, unknown>, userId?: string): Promise<void> {
    await this.o.events.publish({ type: "CustomEvent", name, payload, userId, at: this.o.clock.now() });
  }

  /** Publishes a PerformanceAlertEvent when the operation begun at `started` ran past the threshold. */
  async timed(operation: string, started: number, userId?: string, mfaSessionId?: string): Promise<void> {
    const durationMs = performance.now() - started;
    if (durationMs <= this.o.performanceAlertMs) return;
    await this.o.events.publish({
      type: "PerformanceAlertEvent",
      operation,
      durationMs: Math.round(durationMs),
      thresholdMs: this.o.performanceAlertMs,
      userId,
      mfaSessionId,
      at: this.o.clock.now(),
    });
  }

  /** Records an informational audit event for the flow's user. */
  audit(type: string, who: Authentication, data: Record<string, unknown>, origin: AuditOrigin = {}): void {
    this.o.audit.record({
      ...(origin.correlationId === undefined ? {} : { correlationId: origin.correlationId }),
      type,
      principal: who.username,
      outcome: "info",
      data: { userId: who.userId, ...data },
    });
  }
}
