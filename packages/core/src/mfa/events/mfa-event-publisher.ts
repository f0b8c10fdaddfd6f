import type { AuditSink } from "../../kernel/audit-sink.js";
import type { EventBus } from "../../kernel/event-bus.js";
import type { Logger } from "../../kernel/logger.js";
import type { MfaEventListener } from "./mfa-event-listener.js";
import type { MfaStateMachineEvent } from "./mfa-state-machine-events.js";

/**
 * Delivers every MFA event to the DI listeners, the event bus (`mfa.StateChangeEvent`, ...) and the
 * AuditSink (`mfa.event.StateChangeEvent`, ...). Never throws into the flow.
 */
export class MfaEventPublisher {
  constructor(
    private readonly o: {
      listeners: () => readonly MfaEventListener[];
      bus: EventBus;
      audit: AuditSink;
      logger: Logger;
    },
  ) {}

  /** Publishes one event; resolves when listeners settled. */
  async publish(event: MfaStateMachineEvent): Promise<void> {
    const { type, at, ...data } = event;
    this.o.audit.record({
      type: `mfa.event.${type}`,
      at,
      outcome: type === "ErrorEvent" ? "failure" : "info",
      data: { ...data },
    });
    let listeners: readonly MfaEventListener[] = [];
    try {
      listeners = this.o.listeners();
    } catch (error) {
      this.o.logger.error("MFA event listeners could not be resolved", { error: String(error) });
    }
    await Promise.all([
      this.o.bus.publish(`mfa.${type}`, event),
      ...listeners.map(async (listener) => {
        try {
          await listener.onMfaEvent(event);
        } catch (error) {
          this.o.logger.error("MFA event listener failed", { eventType: type, error: String(error) });
        }
      }),
    ]);
  }
}
