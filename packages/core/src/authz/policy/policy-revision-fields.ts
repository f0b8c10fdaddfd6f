import { isDeepStrictEqual } from "node:util";
import type { NewPolicy, Policy } from "./policy.js";

/** The top-level fields of a policy that say what it is (not those the store assigns), sorted. */
export const POLICY_CONTENT_FIELDS: readonly (keyof NewPolicy)[] = [
  "aiModel",
  "approvalStatus",
  "confidenceScore",
  "description",
  "effect",
  "isActive",
  "name",
  "priority",
  "rules",
  "source",
  "targets",
] satisfies readonly (keyof NewPolicy)[];

/** The content fields whose values differ between two states of one policy, sorted (deep comparison). */
export function changedPolicyFields(before: Policy, after: Policy): string[] {
  return POLICY_CONTENT_FIELDS.filter((field) => !isDeepStrictEqual(before[field], after[field]));
}
