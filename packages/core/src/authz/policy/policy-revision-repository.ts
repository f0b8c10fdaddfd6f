import type { InjectionToken } from "tsyringe";
import type { Policy } from "./policy.js";

/** What a change did to a policy. */
export type PolicyRevisionAction =
  | "CREATED"
  | "UPDATED"
  | "DELETED"
  | "ACTIVATED"
  | "DEACTIVATED"
  | "APPROVED"
  | "REJECTED";

/**
 * One entry of a policy's history, written by the PolicyAdministrationService after each change it
 * applied: who, when, what changed, and the policy as it stood after the change.
 */
export interface PolicyRevision {
  /** Store-assigned id. */
  readonly id: string;
  readonly policyId: string;
  /** The policy's version after the change (for DELETED, the last version it had). */
  readonly policyVersion: number;
  readonly action: PolicyRevisionAction;
  /** The acting principal's name. */
  readonly actor: string;
  /** Epoch milliseconds, from the Clock port. */
  readonly at: number;
  /** Names of the top-level policy fields the change altered (all of them for CREATED). */
  readonly changedFields: readonly string[];
  /** The policy after the change (before it, for DELETED). */
  readonly snapshot: Policy;
  /** A rejection's reason, when one was given. */
  readonly reason?: string | undefined;
}

/** How many revisions `listFor` answers when no limit is given. */
export const DEFAULT_POLICY_REVISION_LIMIT = 100;
/** The most revisions one `listFor` answers; a larger limit is refused (VALIDATION_FAILED). */
export const MAX_POLICY_REVISION_LIMIT = 1_000;

/** A revision before the store gives it an id. */
export type NewPolicyRevision = Omit<PolicyRevision, "id">;

/**
 * Where policy revisions are kept: append-only, never edited. The store assigns ids; `listFor`
 * answers newest first (by `at`, then by `policyVersion`, then insertion), bounded by `limit`.
 */
export interface PolicyRevisionRepository {
  /** Appends one revision; returns it with its id. */
  append(revision: NewPolicyRevision): Promise<PolicyRevision>;
  /**
   * The policy's revisions, newest first; at most `limit` (default 100, at most 1,000); an unknown
   * policy has none. A limit that is not an integer from 1 to 1,000 is VALIDATION_FAILED.
   */
  listFor(policyId: string, limit?: number): Promise<PolicyRevision[]>;
}

/** DI token of the PolicyRevisionRepository port. */
export const PolicyRevisionRepository: InjectionToken<PolicyRevisionRepository> = Symbol.for(
  "platform.PolicyRevisionRepository",
);
