import type { ManagedResource } from "../resources/managed-resource.js";
import { h } from "./html-parts.js";

/** What the create tab is given: the resource picked on the resources tab, if any. */
export interface CreationSlotModel {
  readonly resource?: ManagedResource | undefined;
  /** The chain's CSRF hidden input (empty without CSRF). */
  readonly csrfInput: string;
}

/**
 * The body of `?tab=create`: the one seam where the policy authoring surface (quick and manual
 * creation) joins the console; until it does, it names the resource picked and says creation is
 * done through the policies API.
 */
export function createTabBody(m: CreationSlotModel): string {
  const picked = m.resource
    ? `<p>Selected resource: <code>${h(m.resource.resourceIdentifier)}</code> (${h(m.resource.friendlyName)})</p>`
    : "";
  return `${picked}<p class="empty">Policy authoring is not installed on this console: create policies through <code>POST /admin/api/policies</code>.</p>`;
}
