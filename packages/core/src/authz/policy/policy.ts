/** ALLOW grants when the conditions hold; DENY blocks when they hold. */
export type PolicyEffect = "ALLOW" | "DENY";
/** Where a policy came from. */
export type PolicySource = "MANUAL" | "AI_GENERATED" | "AI_EVOLVED" | "IMPORTED";
/** Whether a policy may be enforced: only NOT_REQUIRED and APPROVED ones load. */
export type ApprovalStatus = "NOT_REQUIRED" | "PENDING" | "APPROVED" | "REJECTED";
/** URL targets carry path patterns (compilePathPattern, policy-target form); METHOD targets carry method identifiers `<Class>.<method>(<types>)`. */
export type TargetType = "URL" | "METHOD";
/** An HTTP method of a URL target; ANY matches every method. */
export type PolicyHttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS" | "ANY";

/** One resource a policy applies to: a URL pattern with an HTTP method, or a method identifier. */
export interface PolicyTarget {
  readonly targetType: TargetType;
  /** URL path pattern (`/api/orders/{id}`, `/static/*.css`), or method identifier. */
  readonly targetIdentifier: string;
  /** URL targets; METHOD targets ignore it (ANY). */
  readonly httpMethod: PolicyHttpMethod;
  /** Order among the policy's targets. */
  readonly targetOrder: number;
  readonly sourceType: "RESOURCE" | "MANUAL";
}

/** One expression evaluated at request time. */
export interface PolicyCondition {
  readonly expression: string;
}

/** A named group of conditions. */
export interface PolicyRule {
  readonly name: string;
  readonly conditions: readonly PolicyCondition[];
}

/** An authorization policy as stored by the PAP (`PolicyAdministrationService`). */
export interface Policy {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly effect: PolicyEffect;
  /** Lower numbers are evaluated first; equal priorities keep creation order (`createdSeq`). */
  readonly priority: number;
  readonly targets: readonly PolicyTarget[];
  readonly rules: readonly PolicyRule[];
  readonly source: PolicySource;
  readonly approvalStatus: ApprovalStatus;
  readonly isActive: boolean;
  /** AI confidence 0..1; null for manual policies. */
  readonly confidenceScore: number | null;
  /** Generating model; null for manual policies. */
  readonly aiModel: string | null;
  /** Creation order, assigned by the repository (monotonic); the tie-breaker of equal priorities. */
  readonly createdSeq: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Compare-and-set version, incremented by every update. */
  readonly version: number;
}

/** True when a policy may be enforced: active and APPROVED or NOT_REQUIRED. */
export function isExecutable(policy: Pick<Policy, "isActive" | "approvalStatus">): boolean {
  return (
    policy.isActive && (policy.approvalStatus === "APPROVED" || policy.approvalStatus === "NOT_REQUIRED")
  );
}

/** Evaluation order: priority ascending, then creation order. */
export function comparePolicies(
  a: Pick<Policy, "priority" | "createdSeq">,
  b: Pick<Policy, "priority" | "createdSeq">,
): number {
  return a.priority - b.priority || a.createdSeq - b.createdSeq;
}

/** Every PolicyEffect, for schemas and query filters. */
export const POLICY_EFFECTS = ["ALLOW", "DENY"] as const satisfies readonly PolicyEffect[];
/** Every PolicySource, for schemas and query filters. */
export const POLICY_SOURCES = [
  "MANUAL",
  "AI_GENERATED",
  "AI_EVOLVED",
  "IMPORTED",
] as const satisfies readonly PolicySource[];
/** Every ApprovalStatus, for schemas and query filters. */
export const APPROVAL_STATUSES = [
  "NOT_REQUIRED",
  "PENDING",
  "APPROVED",
  "REJECTED",
] as const satisfies readonly ApprovalStatus[];
/** Every TargetType, for schemas and query filters. */
export const TARGET_TYPES = ["URL", "METHOD"] as const satisfies readonly TargetType[];
/** Every PolicyHttpMethod, for schemas. */
export const POLICY_HTTP_METHODS = [
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "ANY",
] as const satisfies readonly PolicyHttpMethod[];
/** Every PolicyTarget sourceType: discovered by a scanner (RESOURCE) or typed in (MANUAL). */
export const TARGET_SOURCE_TYPES = [
  "RESOURCE",
  "MANUAL",
] as const satisfies readonly PolicyTarget["sourceType"][];

/** True for sources whose policies need a human approval before they are enforced. */
export function requiresApproval(source: PolicySource): boolean {
  return source === "AI_GENERATED" || source === "AI_EVOLVED";
}

/** A policy as handed to the store: everything but what the store assigns. */
export type NewPolicy = Omit<Policy, "id" | "createdSeq" | "createdAt" | "updatedAt" | "version">;

/** Fields an update may change; the store keeps id, createdSeq and createdAt, and sets updatedAt and version. */
export type PolicyChanges = Partial<NewPolicy>;
