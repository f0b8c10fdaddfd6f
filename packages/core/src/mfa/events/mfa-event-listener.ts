import type { InjectionToken } from "tsyringe";
import type { MfaStateMachineEvent } from "./mfa-state-machine-events.js";

/**
 * Receives MFA events. A family: register any number under this token
 * (`container.register(MfaEventListener, { useValue: listener })`); a failing listener is logged and
 * never disturbs the flow or the other listeners.
 */
export interface MfaEventListener {
  onMfaEvent(event: MfaStateMachineEvent): void | Promise<void>;
}

/** DI token of the MfaEventListener family. */
export const MfaEventListener: InjectionToken<MfaEventListener> = Symbol.for("platform.MfaEventListener");
