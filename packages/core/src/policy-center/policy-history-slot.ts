import type { DependencyContainer } from "tsyringe";
import { type PolicyRevision, PolicyRevisionRepository } from "../authz/policy/policy-revision-repository.js";
import { renderPolicyHistory } from "./policy-history-view.js";

/** How many revisions a policy's page shows. */
export const POLICY_PAGE_REVISIONS = 50;

/** Reads a policy's revisions, newest first; absent when no revision store is registered. */
export type PolicyHistoryReader = (policyId: string) => Promise<readonly PolicyRevision[]>;

/** The revision store of `container` as a reader, when one is registered. */
export function policyHistoryReader(container: DependencyContainer): PolicyHistoryReader | undefined {
  if (!container.isRegistered(PolicyRevisionRepository, true)) return undefined;
  return (policyId) => container.resolve(PolicyRevisionRepository).listFor(policyId, POLICY_PAGE_REVISIONS);
}

/**
 * The history section's body: "history unavailable" without a revision store, else the revisions
 * (the seam where the history view's `renderPolicyHistory` takes over).
 */
export async function policyHistorySection(
  reader: PolicyHistoryReader | undefined,
  policyId: string,
): Promise<string> {
  if (!reader) return `<p class="empty">History unavailable: no policy revision store is registered.</p>`;
  return renderPolicyHistory(await reader(policyId));
}
