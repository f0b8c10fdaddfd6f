import type { ReleaseRow } from "../registry/release-registry.js";
import { CANARY_BUCKETS, canaryBucket, canarySaltOf } from "./canary-bucket.js";
import { type CanaryTargets, familyAdmitted, tenantAdmitted } from "./canary-targets.js";
import { type RequesterIds, requesterKeyOf } from "./requester-key.js";

/** The fields of a release its canary decision reads. */
export type CanaryRelease = Pick<
  ReleaseRow,
  | "registryScope"
  | "promptKey"
  | "promptVersion"
  | "artifactHash"
  | "canaryPercent"
  | "canaryTenants"
  | "canaryResourceFamilies"
>;

/** One request, as the canary sees it: who it is for and where it is aimed. */
export interface CanaryRequest extends RequesterIds, CanaryTargets {}

/**
 * Whether a request runs a CANARY release, and why: IN_SHARE, or the first test it failed (a tenant
 * not listed, a resource family not listed, a bucket at or above the share).
 */
export interface CanaryMembership {
  readonly member: boolean;
  readonly reason: "IN_SHARE" | "TENANT_NOT_LISTED" | "FAMILY_NOT_LISTED" | "OUTSIDE_SHARE";
}

/**
 * The canary decision for one request (the selector calls it for the scope's CANARY release; it
 * reads no state): the tenant and resource-family narrowing first, then the requester's bucket
 * against the share. The share is `canaryPercent` (absent: 100, the whole scope; out of range or not
 * a number: clamped, NaN is 0). Growth is monotone: the threshold rises with the share and the salt
 * does not hold it, so raising the share never moves a requester out.
 */
export function canaryMembership(release: CanaryRelease, request: CanaryRequest): CanaryMembership {
  if (!tenantAdmitted(release.canaryTenants, request.tenant))
    return { member: false, reason: "TENANT_NOT_LISTED" };
  if (!familyAdmitted(release.canaryResourceFamilies, request))
    return { member: false, reason: "FAMILY_NOT_LISTED" };
  const threshold = shareThreshold(release.canaryPercent);
  if (threshold === 0) return { member: false, reason: "OUTSIDE_SHARE" };
  const bucket = canaryBucket(saltOf(release), requesterKeyOf(request));
  return bucket < threshold
    ? { member: true, reason: "IN_SHARE" }
    : { member: false, reason: "OUTSIDE_SHARE" };
}

/** True when the request runs the CANARY release (see canaryMembership). */
export function inCanary(release: CanaryRelease, request: CanaryRequest): boolean {
  return canaryMembership(release, request).member;
}

/**
 * A release's salt, computed once per row object: the selector hands the same cached row to every
 * request, and building the salt costs about as much as the hash. Rows are immutable (a registry
 * change replaces them), so an object's salt never goes stale.
 */
const salts = new WeakMap<CanaryRelease, string>();

function saltOf(release: CanaryRelease): string {
  const known = salts.get(release);
  if (known !== undefined) return known;
  const salt = canarySaltOf(release);
  salts.set(release, salt);
  return salt;
}

/** The buckets below which a requester is in: share percent of CANARY_BUCKETS. */
function shareThreshold(canaryPercent: number | undefined): number {
  const share = canaryPercent ?? 100;
  if (!(share > 0)) return 0;
  return Math.round((Math.min(share, 100) * CANARY_BUCKETS) / 100);
}
