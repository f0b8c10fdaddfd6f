import { PlatformError } from "../../kernel/platform-error.js";
import { UNSAFE_TEXT } from "../../kernel/unsafe-text.js";
import { canonicalPath } from "../../web/canonical-path.js";
import type { ReleaseRow } from "../registry/release-registry.js";
import type { ReleaseState } from "../registry/release-state.js";

/** A CANARY release's share and targets, as a transition sets them and its history records them. */
export interface CanaryShare {
  /** Whole percent of the scope's requesters, 0 to 100; absent: the whole scope. */
  readonly canaryPercent?: number | undefined;
  readonly canaryTenants?: readonly string[] | undefined;
  readonly canaryResourceFamilies?: readonly string[] | undefined;
}

/** The most tenants, or resource families, one canary lists. */
export const MAX_CANARY_TARGETS = 100;
/** The longest tenant name or resource family a canary lists. */
export const MAX_CANARY_TARGET_LENGTH = 256;

const SHARE_FIELDS = ["canaryPercent", "canaryTenants", "canaryResourceFamilies"] as const;
// A resource ID as the route table and service owners name them: a letter or digit, then name characters.
const RESOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

function refused(field: string, message: string): never {
  throw new PlatformError("VALIDATION_FAILED", `${field} ${message}`, { details: { fields: [field] } });
}

/** True when the request names any share field (`undefined` is not naming it). */
export function namesCanaryShare(request: CanaryShare): boolean {
  return SHARE_FIELDS.some((f) => request[f] !== undefined);
}

/** The listed targets, checked: an array of at most 100 distinct, bounded, printable, non-blank names. */
function targetList(field: string, value: unknown, each: (s: string) => string | undefined): string[] {
  if (!Array.isArray(value)) refused(field, "must be a list");
  if (value.length > MAX_CANARY_TARGETS) refused(field, `must list at most ${MAX_CANARY_TARGETS} entries`);
  const seen = new Set<string>();
  for (const item of value) {
    if (typeof item !== "string" || item.trim() === "" || item !== item.trim())
      refused(field, "must list non-blank names without surrounding spaces");
    if (item.length > MAX_CANARY_TARGET_LENGTH)
      refused(field, `must list names of at most ${MAX_CANARY_TARGET_LENGTH} characters`);
    if (UNSAFE_TEXT.test(item) || item.includes(","))
      refused(field, "must not hold control or format characters or commas");
    const problem = each(item);
    if (problem !== undefined) refused(field, problem);
    if (seen.has(item)) refused(field, "must not list an entry twice");
    seen.add(item);
  }
  return [...seen];
}

/** Why `family` is no family: a canonical plain path (`/api/orders`) or a resource ID (`orders`). */
function familyProblem(family: string): string | undefined {
  if (!family.startsWith("/"))
    return RESOURCE_ID.test(family)
      ? undefined
      : "must list canonical paths (/api/orders) or resource IDs (letters, digits, '.', '_', ':', '-')";
  const segments = family.split("/").slice(1);
  if (family !== "/" && segments.some((s) => s === "" || s === "." || s === ".."))
    return "must list plain paths (no empty, '.' or '..' segment)";
  if (canonicalPath(family) !== family) return `must list canonical paths (${canonicalPath(family)})`;
  return undefined;
}

/**
 * The share a transition request sets, checked (VALIDATION_FAILED naming the field): only a move to
 * CANARY takes one; `canaryPercent` a whole number from 0 to 100; each list at most 100 distinct
 * names of at most 256 printable characters (no commas), families canonical plain paths or resource
 * IDs. Undefined when the request names none.
 */
export function requestedCanaryShare(request: CanaryShare, target: ReleaseState): CanaryShare | undefined {
  if (!namesCanaryShare(request)) return undefined;
  if (target !== "CANARY") {
    const named = SHARE_FIELDS.find((f) => request[f] !== undefined)!;
    refused(named, "is taken only by a transition to CANARY");
  }
  const percent: unknown = request.canaryPercent;
  if (
    percent !== undefined &&
    (typeof percent !== "number" || !Number.isInteger(percent) || percent < 0 || percent > 100)
  )
    refused("canaryPercent", "must be a whole number from 0 to 100");
  const tenants = request.canaryTenants;
  const families = request.canaryResourceFamilies;
  return {
    ...(percent === undefined ? {} : { canaryPercent: percent }),
    ...(tenants === undefined
      ? {}
      : { canaryTenants: targetList("canaryTenants", tenants, () => undefined) }),
    ...(families === undefined
      ? {}
      : { canaryResourceFamilies: targetList("canaryResourceFamilies", families, familyProblem) }),
  };
}

/**
 * `moved` with the canary share a transition writes: a move INTO CANARY takes exactly the requested
 * share (nothing given: none, the whole scope; a share left from an earlier canary period is not
 * inherited); a CANARY → CANARY re-share replaces the fields it names and keeps the others (an empty
 * list clears a narrowing). Leaving CANARY keeps the fields on the row, inert, so a rollback or a
 * reverted emergency stop that puts the canary back puts back its share too.
 */
export function withCanaryShare(
  before: ReleaseRow,
  moved: ReleaseRow,
  share: CanaryShare | undefined,
): ReleaseRow {
  if (moved.status !== "CANARY") return moved;
  const base: ReleaseRow =
    before.status === "CANARY"
      ? moved
      : {
          ...moved,
          canaryPercent: undefined,
          canaryTenants: undefined,
          canaryResourceFamilies: undefined,
        };
  const next: Record<string, unknown> = { ...base };
  for (const f of SHARE_FIELDS) if (share?.[f] !== undefined) next[f] = share[f];
  for (const f of SHARE_FIELDS) if (next[f] === undefined) delete next[f];
  return next as unknown as ReleaseRow;
}

/** The row's canary share as recorded in history and audit: only the fields it has. */
export function canaryShareOf(row: CanaryShare): CanaryShare {
  return {
    ...(row.canaryPercent === undefined ? {} : { canaryPercent: row.canaryPercent }),
    ...(row.canaryTenants === undefined ? {} : { canaryTenants: [...row.canaryTenants] }),
    ...(row.canaryResourceFamilies === undefined
      ? {}
      : { canaryResourceFamilies: [...row.canaryResourceFamilies] }),
  };
}

/** How a canary share reads to a person: `10% of requesters` or `whole scope (no share set)`, then targets. */
export function describeCanaryShare(share: CanaryShare): string {
  const parts = [
    share.canaryPercent === undefined
      ? "whole scope (no share set)"
      : `${share.canaryPercent}% of requesters`,
    share.canaryTenants?.length ? `tenants ${share.canaryTenants.join(", ")}` : "",
    share.canaryResourceFamilies?.length ? `families ${share.canaryResourceFamilies.join(", ")}` : "",
  ];
  return parts.filter(Boolean).join("; ");
}
