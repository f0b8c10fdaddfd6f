import { PlatformError } from "../../kernel/platform-error.js";
import type { DependencyContainer } from "tsyringe";
import type { HttpExchange, ResponseBody } from "../../web/http-exchange.js";
import { OTHER_METHODS_CONTRACT, pageContract } from "../../web/contract-parts.js";
import type { RouteContract } from "../../web/route-contract.js";
import type { Route, RouteMethod, RouteStage, RouteTable } from "../../web/route-table.js";
import type { ContainerAware } from "./container-aware.js";
import type { NextFilter, SecurityFilter } from "./security-filter.js";
import { DONE } from "../../web/request-pipeline.js";

/** A route a chain's part declares: the chain id and stage are stamped when the chain is assembled. */
export type ChainRoute = Omit<Route, "chain" | "stage">;

/**
 * A feature's routes mounted on a chain after authorization, added by the host where it wants them:
 * `http.addFilterAfter(userAdminApi(), "authorization")`. It stands in the chain as a filter (its
 * name is what a later `addFilterBefore/After` anchors on), declares its routes in the route table
 * under the chain's id at assembly, and serves the request when the chain's one lookup found one of
 * its routes. `attach` runs before `routes` (the routes' handlers need the platform's services).
 */
export interface RouteMount extends SecurityFilter, ContainerAware {
  /** The owning feature of every route it declares (e.g. `identity.users-admin`, `authz.admin`). */
  readonly feature: string;
  /** The mounted routes, once attached. */
  routes(): readonly ChainRoute[];
}

/** True when an added filter is a RouteMount. */
export function isRouteMount(filter: SecurityFilter): filter is RouteMount {
  const m = filter as Partial<RouteMount>;
  return typeof m.routes === "function" && typeof m.feature === "string";
}

/** What the chain's one lookup found for a request (kept for the mounts after authorization). */
type Found = { route: Route; params: Record<string, string> } | undefined;

/**
 * Per request, the route the chain's entry lookup left for a filter after authorization (a mounted
 * route, an entry route for administrators); a request that has none left nothing for later.
 */
export const routesLeftForLater = new WeakMap<HttpExchange, Found>();
const found = routesLeftForLater;

/**
 * Marks the filters that serve only a route left for later (the authorized entry points, every
 * mount `routeMount` builds): a chain skips them on a request whose lookup left none, without
 * calling them (SecurityFilterChain.runSegment). A host's own RouteMount is always called.
 */
export const SERVES_ROUTE_LEFT_FOR_LATER: unique symbol = Symbol("platform.servesRouteLeftForLater");

/** Runs a route's handler; a returned body is written with status 200 unless the handler committed. */
export function runRoute(
  exchange: HttpExchange,
  route: Route,
  params: Readonly<Record<string, string>>,
): Promise<void> {
  let result: unknown;
  try {
    result = route.handler(exchange, params);
  } catch (error) {
    return Promise.reject(error);
  }
  // A handler that answers at once (no promise) costs no promise here; a promise (or any thenable,
  // as `await` would take it) is waited for.
  if (typeof (result as PromiseLike<unknown> | undefined)?.then === "function") {
    return Promise.resolve(result).then((body) => commitResult(exchange, body as ResponseBody | undefined));
  }
  commitResult(exchange, result as ResponseBody | undefined);
  return DONE;
}

/** Writes what a handler returned as the 200 answer, unless it committed one itself. */
function commitResult(exchange: HttpExchange, result: ResponseBody | undefined): void {
  if (!exchange.response.committed && result !== undefined) {
    exchange.response.body = result;
    exchange.response.committed = true;
  }
}

/**
 * The chain's entry points, one filter at a fixed place of the pipeline (after CSRF, before
 * authorization): it looks the request up once in the route table under this chain's id (exact
 * method, canonical path) and serves an `entry` route; a `mounted` route is left for its mount
 * after authorization, and so is an entry route for administrators (`access: "admin"`, such as the
 * escalation review), so the chain's rules for it (zero trust included) apply; anything else goes on
 * to authorization and the application routes.
 */
export class ChainRoutesFilter implements SecurityFilter {
  readonly name = "entry-points";

  constructor(
    private readonly chain: string,
    private readonly table: RouteTable,
  ) {}

  filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    const match = this.table.matchChain(this.chain, exchange.method, exchange.path, exchange.segments);
    // Kept on the exchange: what the request reached is named from it, never looked up again.
    exchange.match.entry = match ?? null;
    if (!match) return next();
    if (match.route.stage === "mounted" || match.route.access === "admin") {
      found.set(exchange, match);
      return next();
    }
    return runRoute(exchange, match.route, match.params);
  }
}

/**
 * Serves, right after the chain's authorization, the entry routes for administrators that the
 * entry-points filter left for it (an administrator held by zero trust is refused by the rules first).
 */
export class AuthorizedEntryRoutesFilter implements SecurityFilter {
  readonly name = "authorized-entry-points";
  readonly [SERVES_ROUTE_LEFT_FOR_LATER] = true;

  filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    const match = found.get(exchange);
    if (match?.route.stage !== "entry") return next();
    return runRoute(exchange, match.route, match.params);
  }
}

/** A mount's dispatch: serves the request when the chain's lookup found one of `feature`'s mounted routes. */
export function serveMounted(exchange: HttpExchange, feature: string, next: NextFilter): Promise<void> {
  const match = found.get(exchange);
  if (!match || match.route.feature !== feature) return next();
  return runRoute(exchange, match.route, match.params);
}

/** Declares a chain's routes in the table under its id, at a stage. */
export function declareChainRoutes(
  table: RouteTable,
  chain: string,
  stage: RouteStage,
  routes: readonly ChainRoute[],
): void {
  for (const route of routes) table.add({ ...route, chain, stage });
}

/**
 * Builds a RouteMount: its filter name, its feature, what to call it in errors (`userAdminApi()`)
 * and a factory of its routes over the platform's container.
 */
export function routeMount(options: {
  name: string;
  feature: string;
  label: string;
  routes: (container: DependencyContainer) => readonly ChainRoute[];
}): RouteMount {
  let routes: readonly ChainRoute[] | undefined;
  const mount: RouteMount & { readonly [SERVES_ROUTE_LEFT_FOR_LATER]: true } = {
    name: options.name,
    feature: options.feature,
    [SERVES_ROUTE_LEFT_FOR_LATER]: true,
    attach(container: DependencyContainer): void {
      routes = options.routes(container);
    },
    routes(): readonly ChainRoute[] {
      if (!routes) {
        throw new PlatformError("DEPENDENCY_MISSING", `${options.label} was not attached to a platform`);
      }
      return routes;
    },
    filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
      if (!routes) {
        return Promise.reject(
          new PlatformError("DEPENDENCY_MISSING", `${options.label} was not attached to a platform`),
        );
      }
      return serveMounted(exchange, options.feature, next);
    },
  };
  return mount;
}

/**
 * A page's routes: the same handler for `GET` and `HEAD` (chain routes match the exact method). Its
 * OpenAPI contract is an HTML page unless the route names one in `meta.contract`.
 */
export function pageRoutes(route: Omit<ChainRoute, "method">): ChainRoute[] {
  const meta = route.meta?.contract
    ? route.meta
    : { ...route.meta, contract: pageContract(route.description) };
  return [
    { ...route, meta, method: "GET" },
    { ...route, meta, method: "HEAD" },
  ];
}

/**
 * A resource's routes: one per method it serves (name and description each, for the table), plus
 * `ANY` for every other method, all served by one handler that answers 405 with `Allow` itself.
 */
export function resourceRoutes(
  resource: Pick<ChainRoute, "path" | "feature" | "access" | "handler">,
  methods: Partial<
    Record<Exclude<RouteMethod, "ANY">, { name: string; description: string; contract?: RouteContract }>
  >,
  otherMethods: { name: string },
): ChainRoute[] {
  const routes: ChainRoute[] = [];
  for (const [method, { name, description, contract }] of Object.entries(methods)) {
    const meta = contract ? { meta: { contract } } : {};
    routes.push({ ...resource, ...meta, method: method as RouteMethod, name, description });
  }
  const allowed = Object.keys(methods).join(", ");
  routes.push({
    ...resource,
    method: "ANY",
    name: otherMethods.name,
    meta: { contract: { ...OTHER_METHODS_CONTRACT, pathParams: contractOf(routes[0])?.pathParams } },
    description: `Any other method: 405 METHOD_NOT_ALLOWED (Allow: ${allowed})`,
  });
  return routes;
}

function contractOf(route: ChainRoute | undefined): RouteContract | undefined {
  return route?.meta?.contract as RouteContract | undefined;
}
