import type { ConsoleSection } from "../../web/console/console-page.js";

/** The prompt-quality admin API's prefix (prompt-governance.md, "Endpoints"). */
export const PROMPT_QUALITY_API = "/platform/admin/api/prompt-quality";
/** `GET` the registry's releases (`?registryScope=`). */
export const RELEASES_API = `${PROMPT_QUALITY_API}/releases`;
/** `POST` a state transition through the gate (`?dryRun=true`: the blockers, nothing recorded). */
export const RELEASE_TRANSITION_API = `${RELEASES_API}/transition`;
/** `POST` a rollback or emergency stop. */
export const RELEASE_ROLLBACK_API = `${RELEASES_API}/rollback`;
/** `GET` the registry history. */
export const RELEASE_HISTORY_API = `${RELEASES_API}/history`;
/** `POST` evidence bound to a bundle hash; `GET` a version's evidence. */
export const RELEASE_EVIDENCE_API = `${PROMPT_QUALITY_API}/evidence`;

/** Where a second administrator approves an emergency stop. */
export function approveApiOf(executionKey: string): string {
  return `${RELEASE_ROLLBACK_API}/${encodeURIComponent(executionKey)}/approve`;
}

/** The releases page of the admin console. */
export const RELEASES_PAGE_PATH = "/platform/admin/prompt-quality/releases";

/** The releases page's entry in the console navigation (after the Policy Center). */
export const RELEASES_SECTION: ConsoleSection = {
  id: "prompt-releases",
  label: "Prompt releases",
  href: RELEASES_PAGE_PATH,
  order: 20,
};
