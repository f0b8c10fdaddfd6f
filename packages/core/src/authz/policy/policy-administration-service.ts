import type { Authentication } from "../../identity/authentication/authentication.js";
import { UNSAFE_MULTILINE_TEXT } from "../../kernel/unsafe-text.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Logger } from "../../kernel/logger.js";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import {
  type ApprovalStatus,
  type NewPolicy,
  type Policy,
  type PolicyChanges,
  requiresApproval,
} from "./policy.js";
import type { PolicyChange, PolicyChangeListener, PolicyChangeType } from "./policy-change-listener.js";
import { checkPolicyExpressions, type PolicyExpressionTools } from "./policy-expression-check.js";
import type { PolicyFilter, PolicyRepository } from "./policy-repository.js";
import {
  assertProvenance,
  type PolicyCreateInput,
  type PolicyUpdateInput,
  parsePolicyCreate,
  parsePolicyUpdate,
} from "./policy-schema.js";
import { enforcementChanged } from "./policy-enforcement.js";
import { assertRegexBudget } from "./policy-regex-budget.js";
import { changedPolicyFields, POLICY_CONTENT_FIELDS } from "./policy-revision-fields.js";
import type { PolicyRevision, PolicyRevisionAction } from "./policy-revision-repository.js";
import { appendRevision, type PolicyRevisionWriting } from "./policy-revision-writer.js";
import { seedMissingPolicies, systemActorFor } from "./policy-seeding.js";

/** The authority every PAP operation needs unless configured otherwise. */
export const POLICY_ADMIN_AUTHORITY = "ROLE_ADMIN";

/** Longest rejection reason kept in the audit trail. */
export const MAX_REJECTION_REASON_LENGTH = 1_000;

/** Options of the PolicyAdministrationService. */
export interface PolicyAdministrationServiceOptions extends PolicyExpressionTools {
  repository: PolicyRepository;
  audit: AuditSink;
  /** Where listener failures are logged. */
  logger: Logger;
  /** The reload listeners, read at each change; default none. See `policyChangeListenersOf`. */
  listeners?: () => readonly PolicyChangeListener[];
  /** The authority an actor needs. Default ROLE_ADMIN. */
  adminAuthority?: string;
  /**
   * Where each applied change is appended as a revision (the policy's history), timed by `clock`.
   * Both or neither; without them no history is kept.
   */
  revisions?: PolicyRevisionWriting;
}

/**
 * The PAP: creates, changes, approves and removes policies. MANUAL and IMPORTED policies need no
 * approval and apply at once; AI_GENERATED and AI_EVOLVED ones wait as PENDING until approved, and
 * a change to what an approved or rejected AI policy enforces sends it back to PENDING. Every write
 * validates the policy's expressions first (nothing invalid is stored), is audited without the
 * policy body, and then tells the reload listeners, whose failures never undo the change.
 */
export class PolicyAdministrationService {
  private readonly adminAuthority: string;

  constructor(private readonly o: PolicyAdministrationServiceOptions) {
    this.adminAuthority = o.adminAuthority ?? POLICY_ADMIN_AUTHORITY;
  }

  /**
   * Throws ACCESS_DENIED (audited as `policy.access-denied`) unless `actor` holds the admin
   * authority; every operation checks it, and the admin API checks it before reading the request.
   */
  assertAdmin(actor: Authentication, action: string, policyId?: string): void {
    this.requireAdmin(actor, action, policyId);
  }

  /**
   * The actor `system:<name>` (lower-case letters, digits, hyphens; VALIDATION_FAILED otherwise)
   * holding this PAP's admin authority: the public way for a host's own code (seeding policies at
   * start) to act through the PAP, validated and audited under that name like an administrator.
   */
  systemActor(name: string): Authentication {
    return systemActorFor(name, this.adminAuthority);
  }

  /**
   * Creates each of `policies` whose name no stored policy has, as `actor`, and returns the names it
   * created: seeding from code, safe on every start and on several instances starting together
   * (see `seedMissingPolicies`). Each create is the ordinary one (validated, audited, reloaded).
   */
  seedMissing(policies: readonly PolicyCreateInput[], actor: Authentication): Promise<string[]> {
    return seedMissingPolicies(this, policies, actor);
  }

  /** The policies matching `filter`, in evaluation order. */
  async list(filter: PolicyFilter, actor: Authentication): Promise<Policy[]> {
    this.requireAdmin(actor, "list", undefined);
    return this.o.repository.findAll(filter);
  }

  /** One policy; NOT_FOUND when unknown. */
  async get(id: string, actor: Authentication): Promise<Policy> {
    this.requireAdmin(actor, "get", id);
    return this.find(id);
  }

  /**
   * A policy's history, newest first, at most `limit` (see PolicyRevisionRepository.listFor); a
   * deleted policy's too. NOT_FOUND for a policy that neither exists nor ever had a revision.
   */
  async history(id: string, actor: Authentication, limit?: number): Promise<PolicyRevision[]> {
    this.requireAdmin(actor, "history", id);
    const revisions = (await this.o.revisions?.store.listFor(id, limit)) ?? [];
    if (revisions.length === 0) await this.find(id);
    return revisions;
  }

  /** Validates and stores a new policy (VALIDATION_FAILED, POLICY_EXPRESSION_INVALID). */
  async create(input: PolicyCreateInput, actor: Authentication): Promise<Policy> {
    this.requireAdmin(actor, "create", undefined);
    const created = await this.o.repository.create(await this.checkedNew(input));
    await this.revise("CREATED", actor, created, [...POLICY_CONTENT_FIELDS]);
    return this.changed("policy.created", created, actor);
  }

  /**
   * The policy `create` would store for `input`, after the same checks (schema, expressions, regex
   * budget, approval status from the source), storing nothing: for previews before a save.
   */
  async preview(input: PolicyCreateInput, actor: Authentication): Promise<NewPolicy> {
    this.requireAdmin(actor, "preview", undefined);
    return this.checkedNew(input);
  }

  /**
   * Applies `changes` if the policy is still at `expectedVersion` (CONFLICT otherwise). An AI
   * policy whose effect, priority, targets or rules change goes back to PENDING.
   */
  async update(
    id: string,
    expectedVersion: number,
    changes: PolicyUpdateInput,
    actor: Authentication,
  ): Promise<Policy> {
    this.requireAdmin(actor, "update", id);
    const valid = parsePolicyUpdate(changes);
    if (!Number.isSafeInteger(expectedVersion) || expectedVersion < 1) {
      throw new PlatformError("VALIDATION_FAILED", "The expected version must be a positive integer", {
        details: { issues: [{ path: "version", message: "must be a positive integer" }] },
      });
    }
    const current = await this.find(id);
    const merged = { ...current, ...valid };
    assertProvenance(current.source, merged);
    checkPolicyExpressions(merged, this.o);
    if (valid.targets) assertRegexBudget(await this.otherTargets(id), merged.targets);
    const resubmit =
      requiresApproval(current.source) &&
      current.approvalStatus !== "PENDING" &&
      enforcementChanged(current, merged);
    const toStore: PolicyChanges = resubmit ? { ...valid, approvalStatus: "PENDING" } : valid;
    const updated = await this.o.repository.update(id, expectedVersion, toStore);
    await this.revise("UPDATED", actor, updated, changedPolicyFields(current, updated));
    return this.changed("policy.updated", updated, actor, {
      fields: Object.keys(valid).sort(),
      ...(toStore.approvalStatus ? { approvalStatus: toStore.approvalStatus } : {}),
    });
  }

  /** Removes a policy; NOT_FOUND when unknown. */
  async delete(id: string, actor: Authentication): Promise<void> {
    this.requireAdmin(actor, "delete", id);
    const current = await this.find(id);
    if (!(await this.o.repository.delete(id))) throw notFound();
    await this.revise("DELETED", actor, current, []);
    await this.changed("policy.deleted", current, actor);
  }

  /** Marks a policy active (idempotent). A REJECTED policy cannot be activated. */
  async activate(id: string, actor: Authentication): Promise<Policy> {
    this.requireAdmin(actor, "activate", id);
    const current = await this.find(id);
    if (current.approvalStatus === "REJECTED") throw illegal(current, "activate");
    if (current.isActive) return current;
    checkPolicyExpressions(current, this.o);
    const updated = await this.o.repository.update(id, current.version, { isActive: true });
    await this.revise("ACTIVATED", actor, updated, changedPolicyFields(current, updated));
    return this.changed("policy.activated", updated, actor);
  }

  /** Marks a policy inactive (idempotent): it stays stored but no longer loads. */
  async deactivate(id: string, actor: Authentication): Promise<Policy> {
    this.requireAdmin(actor, "deactivate", id);
    const current = await this.find(id);
    if (!current.isActive) return current;
    const updated = await this.o.repository.update(id, current.version, { isActive: false });
    await this.revise("DEACTIVATED", actor, updated, changedPolicyFields(current, updated));
    return this.changed("policy.deactivated", updated, actor);
  }

  /** Approves a PENDING policy (ILLEGAL_STATE_TRANSITION otherwise); it loads if active. */
  async approve(id: string, actor: Authentication): Promise<Policy> {
    this.requireAdmin(actor, "approve", id);
    const current = await this.pending(id, "approve");
    checkPolicyExpressions(current, this.o);
    const updated = await this.decide(current, "approve", { approvalStatus: "APPROVED" });
    await this.revise("APPROVED", actor, updated, changedPolicyFields(current, updated));
    return this.changed("policy.approved", updated, actor);
  }

  /**
   * Rejects a PENDING policy (ILLEGAL_STATE_TRANSITION otherwise) and deactivates it: it stays
   * recorded, never loads, and can only come back through an update that resubmits it.
   */
  async reject(id: string, actor: Authentication, reason?: string): Promise<Policy> {
    this.requireAdmin(actor, "reject", id);
    if (
      reason !== undefined &&
      (typeof reason !== "string" ||
        reason.length > MAX_REJECTION_REASON_LENGTH ||
        UNSAFE_MULTILINE_TEXT.test(reason))
    ) {
      throw new PlatformError("VALIDATION_FAILED", "The rejection reason is invalid", {
        details: {
          issues: [
            {
              path: "reason",
              message: `must be a string of at most ${MAX_REJECTION_REASON_LENGTH}, without control or format characters`,
            },
          ],
        },
      });
    }
    const current = await this.pending(id, "reject");
    const updated = await this.decide(current, "reject", { approvalStatus: "REJECTED", isActive: false });
    await this.revise("REJECTED", actor, updated, changedPolicyFields(current, updated), reason || undefined);
    return this.changed("policy.rejected", updated, actor, reason ? { reason } : {});
  }

  private async checkedNew(input: PolicyCreateInput): Promise<NewPolicy> {
    const valid = parsePolicyCreate(input);
    checkPolicyExpressions(valid, this.o);
    assertRegexBudget(await this.otherTargets(undefined), valid.targets);
    const approvalStatus: ApprovalStatus = requiresApproval(valid.source) ? "PENDING" : "NOT_REQUIRED";
    return { ...valid, approvalStatus };
  }

  // Every stored policy's targets but `exceptId`'s (the regex budget counts inactive ones too:
  // activating a policy must not be what breaks the bound).
  private async otherTargets(exceptId: string | undefined): Promise<Array<Policy["targets"]>> {
    return (await this.o.repository.findAll({})).filter((p) => p.id !== exceptId).map((p) => p.targets);
  }

  private async find(id: string): Promise<Policy> {
    const policy = await this.o.repository.findById(id);
    if (!policy) throw notFound();
    return policy;
  }

  private async pending(id: string, action: string): Promise<Policy> {
    const current = await this.find(id);
    if (current.approvalStatus !== "PENDING") throw illegal(current, action);
    return current;
  }

  // Of two concurrent decisions one wins; the other learns the policy is no longer pending.
  private async decide(current: Policy, action: string, changes: PolicyChanges): Promise<Policy> {
    try {
      return await this.o.repository.update(current.id, current.version, changes);
    } catch (error) {
      if (!isPlatformError(error) || error.code !== "CONFLICT") throw error;
      const now = await this.o.repository.findById(current.id);
      if (!now) throw notFound();
      if (now.approvalStatus !== "PENDING") throw illegal(now, action, error);
      throw error;
    }
  }

  private revise(
    action: PolicyRevisionAction,
    actor: Authentication,
    snapshot: Policy,
    changedFields: string[],
    reason?: string,
  ): Promise<void> {
    return appendRevision(this.o, { action, actor: actor.username, snapshot, changedFields, reason });
  }

  private requireAdmin(actor: Authentication, action: string, policyId: string | undefined): void {
    if (actor.authorities.includes(this.adminAuthority)) return;
    this.o.audit.record({
      type: "policy.access-denied",
      outcome: "denied",
      principal: actor.username,
      data: { action, ...(policyId === undefined ? {} : { policyId }) },
    });
    throw new PlatformError("ACCESS_DENIED", "Only policy administrators may manage policies");
  }

  private async changed(
    type: PolicyChangeType,
    policy: Policy,
    actor: Authentication,
    extra: Record<string, unknown> = {},
  ): Promise<Policy> {
    this.o.audit.record({
      type,
      outcome: "success",
      principal: actor.username,
      data: { policyId: policy.id, name: policy.name, ...extra },
    });
    await this.notify({ type, policyId: policy.id }, actor);
    return policy;
  }

  private async notify(change: PolicyChange, actor: Authentication): Promise<void> {
    let listeners: readonly PolicyChangeListener[] = [];
    try {
      listeners = this.o.listeners?.() ?? [];
    } catch (error) {
      this.reloadFailed(change, actor, "(resolution)", error);
    }
    await Promise.all(
      listeners.map(async (listener) => {
        try {
          await listener.onPoliciesChanged(change);
        } catch (error) {
          this.reloadFailed(change, actor, listener.id, error);
        }
      }),
    );
  }

  private reloadFailed(change: PolicyChange, actor: Authentication, listener: string, error: unknown): void {
    this.o.logger.error("policy change listener failed", {
      listener,
      changeType: change.type,
      policyId: change.policyId,
      error: String(error),
    });
    this.o.audit.record({
      type: "policy.reload-failed",
      outcome: "failure",
      principal: actor.username,
      data: { policyId: change.policyId, changeType: change.type, listener },
    });
  }
}

function notFound(): PlatformError {
  return new PlatformError("NOT_FOUND", "No such policy");
}

function illegal(policy: Policy, action: string, cause?: unknown): PlatformError {
  return new PlatformError(
    "ILLEGAL_STATE_TRANSITION",
    `Cannot ${action} a policy whose approval status is ${policy.approvalStatus}`,
    { details: { approvalStatus: policy.approvalStatus }, cause },
  );
}
