import type { NewPolicy, Policy } from "@keyward/core/ports";

/** Lower-case copies of what `findAll({ text })` searches, kept beside the policy. */
export interface PolicySearchKeys {
  name: string;
  description: string;
  /** Every target identifier, lower case. */
  targets: string[];
}

/** The `policies` collection's document: the policy (`_id` = its id) and its search keys. */
export type PolicyDocument = Omit<Policy, "id"> & { _id: string; search: PolicySearchKeys };

/** The `policy_counters` collection's one document (`_id` = `policies`). */
export interface PolicyCounterDocument {
  _id: string;
  /** The last createdSeq handed out. */
  seq: number;
  /** Policies stored (slots reserved), for maxPolicies. */
  count: number;
  /** Writes taken: what `changeCount()` answers. */
  changes?: number;
}

/** `_id` of the counter document. */
export const counterId = "policies";

/**
 * The NewPolicy fields of `p`, copied field by field (no stray keys, no shared arrays); a field
 * absent from a partial input stays undefined.
 */
export function policyFields(p: Partial<NewPolicy>): { [K in keyof NewPolicy]: NewPolicy[K] } {
  return {
    name: p.name as string,
    description: p.description as string,
    effect: p.effect as NewPolicy["effect"],
    priority: p.priority as number,
    targets: p.targets?.map((t) => ({
      targetType: t.targetType,
      targetIdentifier: t.targetIdentifier,
      httpMethod: t.httpMethod,
      targetOrder: t.targetOrder,
      sourceType: t.sourceType,
    })) as NewPolicy["targets"],
    rules: p.rules?.map((r) => ({
      name: r.name,
      conditions: r.conditions.map((c) => ({ expression: c.expression })),
    })) as NewPolicy["rules"],
    source: p.source as NewPolicy["source"],
    approvalStatus: p.approvalStatus as NewPolicy["approvalStatus"],
    isActive: p.isActive as boolean,
    confidenceScore: p.confidenceScore as number | null,
    aiModel: p.aiModel as string | null,
  };
}

/** The search keys of a (possibly partial) policy. */
export function searchKeysOf(p: Partial<NewPolicy>): PolicySearchKeys {
  return {
    name: (p.name ?? "").toLowerCase(),
    description: (p.description ?? "").toLowerCase(),
    targets: (p.targets ?? []).map((t) => t.targetIdentifier.toLowerCase()),
  };
}

/** The policy a document holds, as a fresh object. */
export function toPolicy(doc: PolicyDocument): Policy {
  return {
    id: doc._id,
    ...policyFields(doc),
    createdSeq: doc.createdSeq,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    version: doc.version,
  };
}

/** `text` as a regular expression that matches it literally. */
export function escapeRegex(text: string): string {
  return text.replace(/[$()*+.?[\\\]^{|}]/g, "\\$&");
}
