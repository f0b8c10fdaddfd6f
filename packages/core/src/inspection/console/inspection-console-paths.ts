import type { ConsoleSection } from "../../web/console/console-page.js";

/** The prompt inspector's overview page (a capture period's counts). */
export const INSPECTION_PAGE_PATH = "/platform/admin/prompt-inspection";
/** The inspected packages page (filters). */
export const INSPECTION_PACKAGES_PAGE_PATH = `${INSPECTION_PAGE_PATH}/packages`;

/** The page of one package: its findings on its prompt lines. */
export function inspectionPackagePagePath(packageId: string): string {
  return `${INSPECTION_PACKAGES_PAGE_PATH}/${encodeURIComponent(packageId)}`;
}

/** The packages page with `filters` (blank ones left out), as a local link. */
export function inspectionPackagesLink(
  filters: Readonly<Record<string, string | number | undefined>>,
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters))
    if (value !== undefined && value !== "") params.set(key, String(value));
  return params.size > 0 ? `${INSPECTION_PACKAGES_PAGE_PATH}?${params}` : INSPECTION_PACKAGES_PAGE_PATH;
}

/** The inspector's entry in the console navigation (after the releases page). */
export const INSPECTION_SECTION: ConsoleSection = {
  id: "prompt-inspection",
  label: "Prompt inspection",
  href: INSPECTION_PAGE_PATH,
  order: 30,
};
