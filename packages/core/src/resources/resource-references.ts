import { isPlatformError } from "../kernel/platform-error.js";
import { compilePathPattern, type PathPattern } from "../web/path-pattern.js";
import { covers } from "../authz/pdp/pattern-coverage.js";
import { isExecutable, type Policy, type PolicyTarget } from "../authz/policy/policy.js";
import type { ManagedResource } from "./managed-resource.js";

/**
 * How a policy's target relates to a resource: `references` (the same identifier, methods matching),
 * `broader` (a wider URL pattern that covers the resource without naming it), or `partial` (the
 * same identifier for only some of the methods of a resource that takes every method).
 */
export type ResourceRelation = "references" | "broader" | "partial";

/** One policy that bears on a resource, as the detail view shows it. */
export interface ResourcePolicyLink {
  readonly policyId: string;
  readonly name: string;
  readonly relation: ResourceRelation;
  readonly effect: Policy["effect"];
  readonly approvalStatus: Policy["approvalStatus"];
  readonly isActive: boolean;
  /** The target that relates, as written. */
  readonly targetIdentifier: string;
  readonly httpMethod: Policy["targets"][number]["httpMethod"];
}

/** A resource's policies: those that connect it, and the impact view (every other one that bears on it). */
export interface ResourcePolicies {
  /** Executable (active, NOT_REQUIRED or APPROVED) policies that reference it. */
  readonly connected: ResourcePolicyLink[];
  /** Broader and partial targets of any status, and references by inactive, PENDING or REJECTED policies. */
  readonly impact: ResourcePolicyLink[];
}

/**
 * Whether a target's method matches a resource's, for a reference: `ANY` matches every method, `GET`
 * also HEAD (docs/decisions/authorization.md#get-covers-head), any other only itself; a resource
 * that takes every method (`ANY`) is referenced only by an `ANY` target (a GET target is `partial`).
 */
function methodMatches(target: string, resource: string): boolean {
  return target === "ANY" || target === resource || (target === "GET" && resource === "HEAD");
}

/** The relation of one target to one resource, or undefined when it does not bear on it. */
export function relationOf(target: PolicyTarget, resource: ManagedResource): ResourceRelation | undefined {
  if (target.targetType !== resource.resourceType) return undefined;
  if (resource.resourceType === "METHOD") {
    return target.targetIdentifier === resource.resourceIdentifier ? "references" : undefined;
  }
  const t = compiled(target.targetIdentifier);
  const r = compiled(resource.resourceIdentifier);
  if (!t || !r) return undefined;
  const resourceMethod = resource.httpMethod ?? "ANY";
  if (t.shape === r.shape) {
    if (methodMatches(target.httpMethod, resourceMethod)) return "references";
    return resourceMethod === "ANY" ? "partial" : undefined;
  }
  // Coverage of a GET-only resource by a GET target includes HEAD's rule; `covers` wants equal or ANY.
  const method = target.httpMethod === "GET" && resourceMethod === "HEAD" ? "HEAD" : target.httpMethod;
  return covers({ pattern: t, method }, { pattern: r, method: resourceMethod }) ? "broader" : undefined;
}

/** Sorts every policy's bearing on `resource` into the connecting ones and the impact view. */
export function policiesOf(resource: ManagedResource, policies: readonly Policy[]): ResourcePolicies {
  const connected: ResourcePolicyLink[] = [];
  const impact: ResourcePolicyLink[] = [];
  for (const policy of policies) {
    const links = policy.targets
      .map((target) => ({ target, relation: relationOf(target, resource) }))
      .filter((l): l is { target: PolicyTarget; relation: ResourceRelation } => l.relation !== undefined);
    // A policy counts once: by its reference when it has one, else by its first broader target.
    const best = links.find((l) => l.relation === "references") ?? links[0];
    if (!best) continue;
    const link: ResourcePolicyLink = {
      policyId: policy.id,
      name: policy.name,
      relation: best.relation,
      effect: policy.effect,
      approvalStatus: policy.approvalStatus,
      isActive: policy.isActive,
      targetIdentifier: best.target.targetIdentifier,
      httpMethod: best.target.httpMethod,
    };
    (best.relation === "references" && isExecutable(policy) ? connected : impact).push(link);
  }
  return { connected, impact };
}

// Patterns repeat across every policy and resource a reconciliation compares: compile each once.
const cache = new Map<string, PathPattern | null>();
const MAX_CACHED = 5_000;

function compiled(pattern: string): PathPattern | undefined {
  let hit = cache.get(pattern);
  if (hit === undefined) {
    try {
      hit = compilePathPattern(pattern, "policy");
    } catch (error) {
      if (!isPlatformError(error)) throw error;
      hit = null;
    }
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(pattern, hit);
  }
  return hit ?? undefined;
}
