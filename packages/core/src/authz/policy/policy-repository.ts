import type { InjectionToken } from "tsyringe";
import type { ApprovalStatus, NewPolicy, Policy, PolicyChanges, PolicySource, TargetType } from "./policy.js";

/** What `PolicyRepository.findAll` may narrow by; absent fields do not filter. */
export interface PolicyFilter {
  source?: PolicySource;
  approvalStatus?: ApprovalStatus;
  isActive?: boolean;
  /** Policies with at least one target of this type. */
  targetType?: TargetType;
  /** Case-insensitive substring of the name, the description or any target identifier. */
  text?: string;
}

/**
 * Where the PAP keeps policies (and the PRP reads them). Every method returns copies. The store
 * assigns id, createdSeq (monotonic, never reused), version and timestamps; it does not validate
 * content, which is the PolicyAdministrationService's job.
 */
export interface PolicyRepository {
  /** Stores a new policy with a fresh id, the next createdSeq, version 1 and createdAt = updatedAt = now. */
  create(policy: NewPolicy): Promise<Policy>;
  /** The policy with this id; undefined when unknown. */
  findById(id: string): Promise<Policy | undefined>;
  /** The matching policies in evaluation order (`comparePolicies`: priority ascending, then createdSeq). */
  findAll(filter?: PolicyFilter): Promise<Policy[]>;
  /**
   * Compare-and-set: applies `changes` only if the stored version equals `expectedVersion`, bumps the
   * version by one and sets updatedAt; id, createdSeq and createdAt never change. Throws `CONFLICT`
   * on a stale version, `NOT_FOUND` when unknown.
   */
  update(id: string, expectedVersion: number, changes: PolicyChanges): Promise<Policy>;
  /** Removes the policy; false when it was not there. */
  delete(id: string): Promise<boolean>;
  /**
   * How many changes the store has taken: each create, successful update and delete that removed a
   * policy adds at least one, and nothing else changes it. Every instance on a shared store polls it
   * (`platform.policy.refresh-interval`) and reloads its decision point when it moved.
   */
  changeCount(): Promise<number>;
}

/** DI token of the PolicyRepository port. */
export const PolicyRepository: InjectionToken<PolicyRepository> = Symbol.for("platform.PolicyRepository");
