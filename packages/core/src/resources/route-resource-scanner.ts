import { compilePathPattern } from "../web/path-pattern.js";
import type { Route } from "../web/route-table.js";
import type { ResourceScanner, ScannedResource } from "./scanned-resource.js";

/**
 * The features (first dot-separated part of `Route.feature`) whose routes are the platform's own
 * endpoints: sign-in, MFA, the admin APIs, `/health`, the SDK's scripts. They are listed in the route
 * table, but apart: no managed resource is made of them.
 */
export const PLATFORM_ROUTE_FEATURES: ReadonlySet<string> = new Set([
  "kernel",
  "web",
  "identity",
  "mfa",
  "authz",
  "http",
  "prompts",
  "decisions",
  "governance",
  "inspection",
  "resources",
]);

/**
 * True for the platform's own routes: every chain route (the security runtime's entry points and
 * mounted admin APIs), and application routes of a platform feature (`decisions.admin.list`,
 * `http.health`). A host's routes are application routes of its own features (`app` by default).
 */
export function isPlatformRoute(route: Pick<Route, "chain" | "feature">): boolean {
  return route.chain !== undefined || PLATFORM_ROUTE_FEATURES.has(route.feature.split(".")[0]!);
}

/** Options of the RouteResourceScanner. */
export interface RouteResourceScannerOptions {
  /** The platform's one route table, read at each scan (routes added since are seen). */
  readonly routes: { list(): readonly Route[] };
  /** `platform.iam.admin.rest-docs-path`: apiDocsUrl is `<restDocsPath>#<route name>`. */
  readonly restDocsPath: string;
}

/**
 * The spec's MvcResourceScanner over the one route table: each host application route is a URL
 * resource (identifier: its path pattern as the table holds it, `/api/orders/{id}`; httpMethod: its
 * method, ANY for ANY routes). The platform's own routes (`isPlatformRoute`) are skipped, and a HEAD
 * route whose path a GET route of the same shape also serves is folded into that GET (GET covers
 * HEAD, in routing and in policy targets alike). Fields: docs/authorization.md#resource-scanning.
 */
export class RouteResourceScanner implements ResourceScanner {
  readonly name = "routes";

  constructor(private readonly o: RouteResourceScannerOptions) {}

  async scan(): Promise<readonly ScannedResource[]> {
    const routes = this.o.routes.list().filter((r) => !isPlatformRoute(r));
    const getShapes = new Set(routes.filter((r) => r.method === "GET").map((r) => shapeOf(r.path)));
    const seen = new Set<string>();
    const found: ScannedResource[] = [];
    for (const route of routes) {
      if (route.method === "HEAD" && getShapes.has(shapeOf(route.path))) continue;
      const key = `${route.method} ${route.path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      found.push(this.resourceOf(route));
    }
    return found;
  }

  private resourceOf(route: Route): ScannedResource {
    return {
      resourceIdentifier: route.path,
      resourceType: "URL",
      httpMethod: route.method,
      friendlyName: route.name,
      description: `URL: [${route.method}] ${route.path}`,
      serviceOwner: route.feature,
      apiDocsUrl: `${this.o.restDocsPath}#${encodeURIComponent(route.name)}`,
      availableContextVariables: JSON.stringify(pathVariablesOf(route.path)),
    };
  }
}

/** The names of a route pattern's `{name}` variables, in path order. */
export function pathVariablesOf(path: string): string[] {
  return compilePathPattern(path, "route").segments.flatMap((s) => (s.kind === "variable" ? [s.name] : []));
}

function shapeOf(path: string): string {
  return compilePathPattern(path, "route").shape;
}
