import { canonicalPath } from "../../web/canonical-path.js";

/** Where a request is aimed, for a canary's narrowing. */
export interface CanaryTargets {
  /** The request's tenant, from the host's scope resolver; absent or empty: no tenant. */
  readonly tenant?: string | undefined;
  /** The request's resource address: its path (`/api/orders/42`), without query. */
  readonly resourceAddress?: string | undefined;
  /** Its resource ID: the managed resource's service owner for its target, else the route's feature. */
  readonly resourceId?: string | undefined;
}

/**
 * True when `canaryTenants` lets the request in: no list (or an empty one) narrows nothing; a list
 * takes only a request whose tenant is listed, exactly (case kept). A request without a tenant is
 * outside any list.
 */
export function tenantAdmitted(
  canaryTenants: readonly string[] | undefined,
  tenant: string | undefined,
): boolean {
  if (!canaryTenants?.length) return true;
  return !!tenant && canaryTenants.includes(tenant);
}

/**
 * True when `canaryResourceFamilies` lets the request in: no list (or an empty one) narrows nothing;
 * else some listed family equals the request's resource ID, or is a path (`/…`) the request's
 * address lies in, whole segments only: `/api/orders` takes `/api/orders` and `/api/orders/42`,
 * never `/api/orders-admin`. Both are compared in canonical path form (`canonicalPath`); an
 * address that is not a plain path (no leading `/`, an empty, `.` or `..` segment) lies in no
 * family, so nobody walks into a family with `/api/orders/../admin`. An empty family matches nothing.
 */
export function familyAdmitted(
  canaryResourceFamilies: readonly string[] | undefined,
  target: Pick<CanaryTargets, "resourceAddress" | "resourceId">,
): boolean {
  if (!canaryResourceFamilies?.length) return true;
  const address = plainPath(target.resourceAddress);
  const id = target.resourceId;
  return canaryResourceFamilies.some(
    (family) =>
      typeof family === "string" &&
      !!family &&
      (family === id || (address !== undefined && pathWithin(address, family))),
  );
}

/** `address` (canonical, plain) lies in the path family `family`, on a segment boundary. */
function pathWithin(address: string, family: string): boolean {
  if (!family.startsWith("/")) return false;
  const root = canonicalPath(family);
  if (root === "/") return true;
  return address === root || address.startsWith(`${root}/`);
}

/** The canonical form of a plain absolute path, or undefined for anything else. */
function plainPath(address: string | undefined): string | undefined {
  if (typeof address !== "string" || !address.startsWith("/")) return undefined;
  const path = canonicalPath(address);
  if (path === "/") return path;
  const segments = path.split("/");
  for (let i = 1; i < segments.length; i++) {
    const s = segments[i];
    if (s === "" || s === "." || s === "..") return undefined;
  }
  return path;
}
