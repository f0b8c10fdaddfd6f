import type { IdGenerator } from "../../kernel/id-generator.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { Policy } from "./policy.js";
import {
  DEFAULT_POLICY_REVISION_LIMIT,
  MAX_POLICY_REVISION_LIMIT,
  type NewPolicyRevision,
  type PolicyRevision,
  type PolicyRevisionRepository,
} from "./policy-revision-repository.js";

/** Options of the InMemoryPolicyRevisionRepository. */
export interface InMemoryPolicyRevisionRepositoryOptions {
  /** Revision ids (`id()`). */
  ids: IdGenerator;
  /**
   * At most this many revisions are kept across all policies; past it the oldest appended goes
   * first, so an embedded platform's memory stays bounded. Default 50,000.
   */
  maxRevisions?: number;
}

interface Entry {
  readonly seq: number;
  readonly revision: PolicyRevision;
}

/**
 * The reference PolicyRevisionRepository, used by tests and the embedded default: append-only,
 * kept as copies (a caller never shares an object with the store), bounded by `maxRevisions`.
 */
export class InMemoryPolicyRevisionRepository implements PolicyRevisionRepository {
  private readonly byPolicy = new Map<string, Entry[]>();
  /** Policy ids in append order, one per stored revision: who loses the oldest when full. */
  private readonly order: string[] = [];
  private readonly maxRevisions: number;
  private seq = 0;

  constructor(private readonly o: InMemoryPolicyRevisionRepositoryOptions) {
    this.maxRevisions = o.maxRevisions ?? 50_000;
    if (!Number.isSafeInteger(this.maxRevisions) || this.maxRevisions < 1) {
      throw new PlatformError("CONFIGURATION_INVALID", "maxRevisions must be a positive integer");
    }
  }

  async append(revision: NewPolicyRevision): Promise<PolicyRevision> {
    const stored = copyRevision({ ...revision, id: this.o.ids.id() });
    const list = this.byPolicy.get(stored.policyId) ?? [];
    list.push({ seq: ++this.seq, revision: stored });
    this.byPolicy.set(stored.policyId, list);
    this.order.push(stored.policyId);
    if (this.order.length > this.maxRevisions) this.dropOldest();
    return copyRevision(stored);
  }

  async listFor(policyId: string, limit: number = DEFAULT_POLICY_REVISION_LIMIT): Promise<PolicyRevision[]> {
    checkRevisionLimit(limit);
    const list = this.byPolicy.get(policyId) ?? [];
    return [...list]
      .sort(
        (a, b) =>
          b.revision.at - a.revision.at ||
          b.revision.policyVersion - a.revision.policyVersion ||
          b.seq - a.seq,
      )
      .slice(0, limit)
      .map((e) => copyRevision(e.revision));
  }

  private dropOldest(): void {
    const policyId = this.order.shift();
    if (policyId === undefined) return;
    const list = this.byPolicy.get(policyId);
    list?.shift();
    if (list?.length === 0) this.byPolicy.delete(policyId);
  }
}

/** Refuses a `listFor` limit that is not an integer from 1 to MAX_POLICY_REVISION_LIMIT. */
export function checkRevisionLimit(limit: number): void {
  if (Number.isSafeInteger(limit) && limit >= 1 && limit <= MAX_POLICY_REVISION_LIMIT) return;
  const message = `must be an integer from 1 to ${MAX_POLICY_REVISION_LIMIT}`;
  throw new PlatformError("VALIDATION_FAILED", `The request is invalid: limit ${message}`, {
    details: { issues: [{ path: "limit", message }] },
  });
}

// Field by field: a stray field of the input (an `_id`, a `seq`) is never stored or answered.
function copyRevision(r: PolicyRevision): PolicyRevision {
  return {
    id: r.id,
    policyId: r.policyId,
    policyVersion: r.policyVersion,
    action: r.action,
    actor: r.actor,
    at: r.at,
    changedFields: [...r.changedFields],
    snapshot: structuredClone(r.snapshot) as Policy,
    ...(r.reason === undefined ? {} : { reason: r.reason }),
  };
}
