import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import type { Logger } from "../../kernel/logger.js";
import type { Policy } from "./policy.js";
import type { PolicyRevisionAction, PolicyRevisionRepository } from "./policy-revision-repository.js";

/** Where the PAP writes a policy's history, and the clock that times each revision. */
export interface PolicyRevisionWriting {
  store: PolicyRevisionRepository;
  clock: Clock;
}

/** One applied change, as the PAP reports it. */
export interface AppliedChange {
  action: PolicyRevisionAction;
  /** The acting principal's name. */
  actor: string;
  /** The policy after the change (before it, for a delete). */
  snapshot: Policy;
  changedFields: string[];
  reason?: string | undefined;
}

/**
 * Appends a change's revision, if history is kept. The change is applied by then: a store that
 * fails is logged and audited (`policy.revision-failed`), and never undoes the change or fails the
 * caller's request.
 */
export async function appendRevision(
  o: { revisions?: PolicyRevisionWriting | undefined; logger: Logger; audit: AuditSink },
  change: AppliedChange,
): Promise<void> {
  const revisions = o.revisions;
  if (!revisions) return;
  const { snapshot, action, actor } = change;
  try {
    await revisions.store.append({
      policyId: snapshot.id,
      policyVersion: snapshot.version,
      action,
      actor,
      at: revisions.clock.now(),
      changedFields: change.changedFields,
      snapshot,
      ...(change.reason === undefined ? {} : { reason: change.reason }),
    });
  } catch (error) {
    o.logger.error("policy revision not written", { policyId: snapshot.id, action, error: String(error) });
    o.audit.record({
      type: "policy.revision-failed",
      outcome: "failure",
      principal: actor,
      data: { policyId: snapshot.id, action },
    });
  }
}
