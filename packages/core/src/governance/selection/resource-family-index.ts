import type { InjectionToken } from "tsyringe";
import type { Logger } from "../../kernel/logger.js";
import { canonicalPath } from "../../web/canonical-path.js";
import type { ManagedResourceRepository } from "../../resources/managed-resource-repository.js";
import type { RouteTable } from "../../web/route-table.js";
import type { ReleaseSnapshot } from "./release-snapshots.js";

/** What a ResourceFamilyIndex reads. */
export interface ResourceFamilyIndexOptions {
  /** The platform's one route table; absent: no request has a family. */
  readonly routes?: Pick<RouteTable, "match"> | undefined;
  /** The managed resources (their service owners); absent: the route's feature is the family. */
  readonly resources?: Pick<ManagedResourceRepository, "findAll"> | undefined;
  readonly logger: Logger;
  /**
   * Shadow runs are on: their comparison counts reason drift per family, so the owners are read
   * while a SHADOW release exists too.
   */
  readonly shadowRuns?: boolean | undefined;
}

/**
 * The resource family of a request (ResourceFamilyOf), from memory: the route the method and
 * canonical path match in the route table, then the service owner of the managed URL resource made
 * of that route, else the route's feature. The service owners are read from the store only while a
 * CANARY release of the snapshot lists resource families, or (with shadow runs on) a SHADOW release
 * exists: nothing else asks for a family on the decision path. They are read once per snapshot read
 * and dropped when nothing asks; a failed read keeps the owners
 * last read (logged once, and its recovery once).
 */
export class ResourceFamilyIndex {
  private owners: ReadonlyMap<string, string> = new Map();
  private failing = false;

  constructor(private readonly o: ResourceFamilyIndexOptions) {}

  /** The family of a request to `target` with `method`; undefined without either, or without a route. */
  readonly familyOf = (method: string | undefined, target: string | undefined): string | undefined => {
    if (this.o.routes === undefined || !method || !target?.startsWith("/")) return undefined;
    const path = canonicalPath(pathOf(target));
    const found = this.o.routes.match(method, path);
    if (found.kind !== "found") return undefined;
    const { method: routeMethod, path: pattern, feature } = found.route;
    return (
      this.owners.get(`${routeMethod} ${pattern}`) ??
      (routeMethod === "HEAD" ? this.owners.get(`GET ${pattern}`) : undefined) ??
      feature
    );
  };

  /** Reads the service owners when `snapshot` has a CANARY release narrowed by families. Never rejects. */
  async refresh(snapshot: ReleaseSnapshot): Promise<void> {
    if (this.o.resources === undefined || this.o.routes === undefined) return;
    if (!familiesListed(snapshot) && !(this.o.shadowRuns && shadowListed(snapshot))) {
      if (this.owners.size > 0) this.owners = new Map();
      return;
    }
    try {
      const owners = new Map<string, string>();
      for (const r of await this.o.resources.findAll())
        if (r.resourceType === "URL" && r.serviceOwner)
          owners.set(`${r.httpMethod ?? "ANY"} ${r.resourceIdentifier}`, r.serviceOwner);
      this.owners = owners;
      if (this.failing) this.o.logger.info("managed resources readable again for canary families", {});
      this.failing = false;
    } catch (error) {
      if (!this.failing)
        this.o.logger.error("managed resources unreadable: canary families keep the owners read last", {
          error: String(error),
        });
      this.failing = true;
    }
  }
}

/** DI token of the platform's ResourceFamilyIndex (registered by promptGovernancePlugin). */
export const ResourceFamilies: InjectionToken<ResourceFamilyIndex> = Symbol.for(
  "platform.governance.ResourceFamilies",
);

function familiesListed(snapshot: ReleaseSnapshot): boolean {
  for (const rows of snapshot.scopes.values())
    for (const row of rows) if (row.status === "CANARY" && row.canaryResourceFamilies?.length) return true;
  return false;
}

/** The path of a request target, without query or fragment. */
export function pathOf(target: string): string {
  const cut = target.search(/[?#]/);
  return cut < 0 ? target : target.slice(0, cut);
}

function shadowListed(snapshot: ReleaseSnapshot): boolean {
  for (const rows of snapshot.scopes.values())
    for (const row of rows) if (row.status === "SHADOW") return true;
  return false;
}
