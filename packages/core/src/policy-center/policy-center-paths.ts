import type { ConsoleSection } from "../web/console/console-page.js";

/** The Policy Center's page (`?tab=resources|policies|create`). */
export const POLICY_CENTER_PATH = "/admin/policy-center";
/** The legacy managed-resource list the spec names; its form posts live under it too. */
export const WORKBENCH_RESOURCES_PATH = "/admin/workbench/resources";

/** The Policy Center's tabs, the first the default. */
export const POLICY_CENTER_TABS = ["resources", "policies", "create"] as const;
/** One tab of the Policy Center. */
export type PolicyCenterTab = (typeof POLICY_CENTER_TABS)[number];

/** The Policy Center's entry in the console navigation. */
export const POLICY_CENTER_SECTION: ConsoleSection = {
  id: "policy-center",
  label: "Policy Center",
  href: POLICY_CENTER_PATH,
  order: 10,
};

/** The page of one tab, with its query (a `tab` in `query` is replaced). */
export function tabHref(tab: PolicyCenterTab, query: URLSearchParams = new URLSearchParams()): string {
  const q = new URLSearchParams(query);
  q.delete("tab");
  const rest = q.toString();
  return `${POLICY_CENTER_PATH}?tab=${tab}${rest ? `&${rest}` : ""}`;
}

/** The page of one policy. */
export function policyHref(id: string): string {
  return `${POLICY_CENTER_PATH}/policies/${encodeURIComponent(id)}`;
}

/** Where a resource's console form posts (`define`, `exclude`, `restore`). */
export function resourceActionHref(id: string, action: string): string {
  return `${POLICY_CENTER_PATH}/resources/${encodeURIComponent(id)}/${action}`;
}

/** Where a policy's console form posts (`edit`, `activate`, ...). */
export function policyActionHref(id: string, action: string): string {
  return `${policyHref(id)}/${action}`;
}
