export {
  DEFAULT_ESCALATION_TTL_MS,
  ESCALATION_STATUSES,
  type Escalation,
  type EscalationStatus,
} from "./escalation.js";
export { ESCALATION_BINDING_COOKIE, EscalationCallerBinding } from "./escalation-caller-binding.js";
export {
  ESCALATION_EVENTS,
  type EscalationEventPayload,
  type EscalationEventType,
} from "./escalation-events.js";
export {
  EscalationAdminFilter,
  EscalationStatusFilter,
  type EscalationAdminFilterOptions,
  type EscalationStatusFilterOptions,
} from "./escalation-filters.js";
export {
  ESCALATION_ADMIN_AUTHORITY,
  EscalationService,
  type EscalationPoll,
  type EscalationServiceOptions,
} from "./escalation-service.js";
export { EscalationStore } from "./escalation-store.js";
export {
  InMemoryEscalationStore,
  type InMemoryEscalationStoreOptions,
} from "./in-memory-escalation-store.js";
