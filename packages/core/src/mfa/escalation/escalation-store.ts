import type { InjectionToken } from "tsyringe";
import type { Escalation } from "./escalation.js";

/**
 * Where escalated logins wait for an administrator. Every method returns copies. A PENDING or
 * APPROVED escalation whose `expiresAt` passed reads as status EXPIRED (and can no longer be written).
 */
export interface EscalationStore {
  /** Stores a new escalation with version 1 and returns it. Throws `CONFLICT` when the id is taken. */
  create(escalation: Escalation): Promise<Escalation>;
  /** The escalation with this id (EXPIRED when its time ran out undecided or unclaimed); undefined when unknown. */
  find(id: string): Promise<Escalation | undefined>;
  /** Every PENDING, unexpired escalation, oldest first. */
  listPending(): Promise<Escalation[]>;
  /**
   * Compare-and-set: stores `escalation` only if the stored version equals its version, and returns
   * it with the version bumped by one; `createdAt` and `callerBinding` are kept from the store.
   * Throws `CONFLICT` on a stale version or when the stored escalation expired, `NOT_FOUND` when unknown.
   */
  compareAndSet(escalation: Escalation): Promise<Escalation>;
}

/** DI token of the EscalationStore port. */
export const EscalationStore: InjectionToken<EscalationStore> = Symbol.for("platform.EscalationStore");
