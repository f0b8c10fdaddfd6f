import type { Clock } from "../../kernel/clock.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { comparePolicies, type NewPolicy, type Policy, type PolicyChanges } from "./policy.js";
import type { PolicyFilter, PolicyRepository } from "./policy-repository.js";

/** Options of the InMemoryPolicyRepository. */
export interface InMemoryPolicyRepositoryOptions {
  /** Sets createdAt and updatedAt. */
  clock: Clock;
  /** Policy ids (`id()`). */
  ids: IdGenerator;
  /** At most this many policies; creating one more is refused with CONFLICT. Default 10_000. */
  maxPolicies?: number;
}

/**
 * The reference PolicyRepository, used by tests and the embedded default. No `await` sits between
 * a check and its write, so compare-and-set is atomic on the event loop; policies are stored and
 * returned as copies built field by field, so callers never share objects with the store and stray
 * fields (an `id` or `version` in the input) are never stored.
 */
export class InMemoryPolicyRepository implements PolicyRepository {
  private readonly entries = new Map<string, Policy>();
  private readonly clock: Clock;
  private readonly ids: IdGenerator;
  private readonly maxPolicies: number;
  private lastSeq = 0;
  private changes = 0;

  constructor(options: InMemoryPolicyRepositoryOptions) {
    this.clock = options.clock;
    this.ids = options.ids;
    this.maxPolicies = options.maxPolicies ?? 10_000;
    if (!Number.isInteger(this.maxPolicies) || this.maxPolicies < 1) {
      throw new PlatformError("CONFIGURATION_INVALID", "maxPolicies must be a positive integer");
    }
  }

  async create(policy: NewPolicy): Promise<Policy> {
    if (this.entries.size >= this.maxPolicies) {
      throw new PlatformError("CONFLICT", "The policy store is full", {
        details: { maxPolicies: this.maxPolicies },
      });
    }
    const id = this.ids.id();
    if (this.entries.has(id)) throw new PlatformError("CONFLICT", "The policy id is taken");
    const now = this.clock.now();
    const stored = copyPolicy({
      ...policy,
      id,
      createdSeq: ++this.lastSeq,
      createdAt: now,
      updatedAt: now,
      version: 1,
    });
    this.entries.set(id, stored);
    this.changes++;
    return copyPolicy(stored);
  }

  async findById(id: string): Promise<Policy | undefined> {
    const stored = this.entries.get(id);
    return stored && copyPolicy(stored);
  }

  async findAll(filter: PolicyFilter = {}): Promise<Policy[]> {
    const text = filter.text?.toLowerCase();
    const out: Policy[] = [];
    for (const p of this.entries.values()) {
      if (filter.source !== undefined && p.source !== filter.source) continue;
      if (filter.approvalStatus !== undefined && p.approvalStatus !== filter.approvalStatus) continue;
      if (filter.isActive !== undefined && p.isActive !== filter.isActive) continue;
      if (filter.targetType !== undefined && !p.targets.some((t) => t.targetType === filter.targetType)) {
        continue;
      }
      if (text && !containsText(p, text)) continue;
      out.push(copyPolicy(p));
    }
    return out.sort(comparePolicies);
  }

  async update(id: string, expectedVersion: number, changes: PolicyChanges): Promise<Policy> {
    const stored = this.entries.get(id);
    if (!stored) throw new PlatformError("NOT_FOUND", "No such policy");
    if (stored.version !== expectedVersion) {
      throw new PlatformError("CONFLICT", "The policy changed concurrently", {
        details: { expectedVersion, currentVersion: stored.version },
      });
    }
    const next = copyPolicy({
      ...stored,
      ...definedOnly(changes),
      id: stored.id,
      createdSeq: stored.createdSeq,
      createdAt: stored.createdAt,
      updatedAt: this.clock.now(),
      version: stored.version + 1,
    });
    this.entries.set(id, next);
    this.changes++;
    return copyPolicy(next);
  }

  async delete(id: string): Promise<boolean> {
    const removed = this.entries.delete(id);
    if (removed) this.changes++;
    return removed;
  }

  async changeCount(): Promise<number> {
    return this.changes;
  }
}

function containsText(p: Policy, lowerText: string): boolean {
  return (
    p.name.toLowerCase().includes(lowerText) ||
    p.description.toLowerCase().includes(lowerText) ||
    p.targets.some((t) => t.targetIdentifier.toLowerCase().includes(lowerText))
  );
}

// `{ name: undefined }` means "not given", as it would for a JSON body or a document store.
function definedOnly(changes: PolicyChanges): PolicyChanges {
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
}

/** A deep copy holding exactly the Policy fields (no stray keys, no shared arrays). */
function copyPolicy(p: Policy): Policy {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    effect: p.effect,
    priority: p.priority,
    targets: p.targets.map((t) => ({
      targetType: t.targetType,
      targetIdentifier: t.targetIdentifier,
      httpMethod: t.httpMethod,
      targetOrder: t.targetOrder,
      sourceType: t.sourceType,
    })),
    rules: p.rules.map((r) => ({
      name: r.name,
      conditions: r.conditions.map((c) => ({ expression: c.expression })),
    })),
    source: p.source,
    approvalStatus: p.approvalStatus,
    isActive: p.isActive,
    confidenceScore: p.confidenceScore,
    aiModel: p.aiModel,
    createdSeq: p.createdSeq,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    version: p.version,
  };
}
