import { z } from "zod";
import { APPROVAL_STATUSES, POLICY_SOURCES, TARGET_TYPES } from "../authz/policy/policy.js";
import type { PolicyFilter } from "../authz/policy/policy-repository.js";
import { RESOURCE_STATUSES, RESOURCE_TYPES } from "../resources/managed-resource.js";
import type { ManagedResourceFilter } from "../resources/managed-resource-repository.js";
import { MANAGED_RESOURCE_MAX_PAGE } from "../resources/managed-resource-repository.js";
import { DEFAULT_RESOURCE_PAGE, MAX_RESOURCE_QUERY_LENGTH } from "../resources/resource-admin-endpoints.js";
import { CONSOLE_NOTICE_CODES } from "./console-notices.js";
import { consoleId, invalid, parseQuery, wholeNumber } from "./console-input.js";
import { POLICY_CENTER_TABS } from "./policy-center-paths.js";

/** Longest keyword or service owner a filter takes (as the admin APIs). */
export const MAX_FILTER_TEXT_LENGTH = MAX_RESOURCE_QUERY_LENGTH;

const keyword = z.string().max(MAX_FILTER_TEXT_LENGTH);

/** The resources tab's filter and paging (the resources API's query, blanks dropped). */
export const ResourceQuery = z.strictObject({
  status: z.enum(RESOURCE_STATUSES).optional(),
  type: z.enum(RESOURCE_TYPES).optional(),
  serviceOwner: keyword.optional(),
  q: keyword.optional(),
  offset: wholeNumber(0, 1_000_000_000).optional(),
  limit: wholeNumber(1, MANAGED_RESOURCE_MAX_PAGE).optional(),
});
/** A parsed resources filter. */
export type ResourceQuery = z.infer<typeof ResourceQuery>;

/** The policies tab's filter (the policies API's query, blanks dropped). */
const PolicyQuery = z.strictObject({
  source: z.enum(POLICY_SOURCES).optional(),
  approvalStatus: z.enum(APPROVAL_STATUSES).optional(),
  isActive: z.enum(["true", "false"]).optional(),
  targetType: z.enum(TARGET_TYPES).optional(),
  q: keyword.optional(),
});

/** Everything `GET /admin/policy-center` takes: the tab, a notice code and each tab's filter. */
export const PageQuery = z.strictObject({
  tab: z.enum(POLICY_CENTER_TABS).optional(),
  notice: z.enum(CONSOLE_NOTICE_CODES).optional(),
  ...ResourceQuery.shape,
  ...PolicyQuery.shape,
  resourceId: consoleId.optional(),
});
/** A parsed page query. */
export type PageQuery = z.infer<typeof PageQuery>;

/** A policy page's query: the notice a form post's redirect asked for. */
export const NoticeQuery = z.strictObject({ notice: z.enum(CONSOLE_NOTICE_CODES).optional() });

/** The page's query, validated (VALIDATION_FAILED otherwise). */
export function pageQuery(query: URLSearchParams): PageQuery {
  return parseQuery(PageQuery, query);
}

/** The store filter of a resources query. */
export function resourceFilterOf(q: ResourceQuery): ManagedResourceFilter {
  return {
    ...(q.status ? { status: q.status } : {}),
    ...(q.type ? { resourceType: q.type } : {}),
    ...(q.serviceOwner ? { serviceOwner: q.serviceOwner } : {}),
    ...(q.q ? { text: q.q } : {}),
  };
}

/** The page of a resources query: offset 0 and the API's default size unless given. */
export function resourcePageOf(q: ResourceQuery): { offset: number; limit: number } {
  return { offset: q.offset ?? 0, limit: q.limit ?? DEFAULT_RESOURCE_PAGE };
}

/** The store filter of a policies query. */
export function policyFilterOf(q: PageQuery): PolicyFilter {
  return {
    ...(q.source ? { source: q.source } : {}),
    ...(q.approvalStatus ? { approvalStatus: q.approvalStatus } : {}),
    ...(q.isActive ? { isActive: q.isActive === "true" } : {}),
    ...(q.targetType ? { targetType: q.targetType } : {}),
    ...(q.q ? { text: q.q } : {}),
  };
}

/** A resources query as a query string (only the filter and paging, in a fixed order). */
export function resourceQueryString(q: ResourceQuery): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of Object.keys(ResourceQuery.shape) as (keyof ResourceQuery)[]) {
    const value = q[key];
    if (value !== undefined) out.set(key, String(value));
  }
  return out;
}

/** Longest `back` (the resources filter a form returns to) a post takes. */
export const MAX_BACK_LENGTH = 1_000;

/**
 * The resources filter a form post returns to, from its `back` field: a query string, validated as
 * the tab's filter (so a redirect goes only to the tab, with a filter it would accept).
 */
export function backQuery(back: string | undefined): ResourceQuery {
  if (back === undefined || back === "") return {};
  if (back.length > MAX_BACK_LENGTH) throw invalid("back", `must be at most ${MAX_BACK_LENGTH} characters`);
  try {
    return parseQuery(ResourceQuery, new URLSearchParams(back));
  } catch {
    throw invalid("back", "must be a resources filter");
  }
}
