export { MfaEventListener } from "./mfa-event-listener.js";
export { MfaEventPublisher } from "./mfa-event-publisher.js";
export { MFA_PERFORMANCE_ALERT } from "./mfa-events.properties.js";
export type {
  CustomEvent,
  ErrorEvent,
  MfaErrorType,
  MfaStateMachineEvent,
  PerformanceAlertEvent,
  StateChangeEvent,
} from "./mfa-state-machine-events.js";
