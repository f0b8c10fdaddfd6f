/** Event types the EscalationService publishes on the EventBus. */
export const ESCALATION_EVENTS = Object.freeze({
  opened: "mfa.escalation.opened",
  approved: "mfa.escalation.approved",
  rejected: "mfa.escalation.rejected",
} as const);

/** An escalation event type. */
export type EscalationEventType = (typeof ESCALATION_EVENTS)[keyof typeof ESCALATION_EVENTS];

/** The payload of every escalation event: who was held, why, and (for decisions) by whom. No secrets. */
export interface EscalationEventPayload {
  escalationId: string;
  userId: string;
  username: string;
  flowTypeName: string;
  reason: string;
  remoteAddress: string;
  status: "PENDING" | "APPROVED" | "REJECTED";
  /** Set on approved and rejected. */
  decidedBy?: string;
  at: number;
}
