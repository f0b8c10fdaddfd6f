import { PlatformError } from "@keyward/core/errors";
import {
  holdResult,
  type HttpExchange,
  type PipelineStep,
  type ResponseBody,
  type Route,
  type RouteAccess,
  RouteTable,
  routePattern,
} from "@keyward/core/web";
import { routeParams } from "./exchange-attributes.js";

/** The HTTP methods a route can be registered for. */
export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

/**
 * An application route, framework-free: it works on the exchange. A returned object, array, string
 * or bytes is written with status 200 unless the handler committed the exchange itself.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: lets `async (exchange) => { ... }` (Promise<void>) be a handler
export type RouteHandler = (exchange: HttpExchange) => Promise<ResponseBody | void> | ResponseBody | void;

/**
 * One route: method (or ANY), path pattern (`/a/{id}`, `/js/**`; `/a/:id` is accepted and kept as
 * `/a/{id}`), handler, and data for scanners.
 */
export interface RouteDefinition {
  method: HttpMethod | "ANY";
  path: string;
  handler: RouteHandler;
  /** Free data for resource scanners and docs (e.g. the protected resource name). */
  meta?: Record<string, unknown>;
  description?: string;
  /** Stable handler name in the route table (default `app.<METHOD> <path>`). */
  name?: string;
  /** Owning feature in the route table (default `app`). */
  feature?: string;
  /** Who may call it, as documented in the route table (default `chain-rules`). */
  access?: RouteAccess;
  /**
   * Whether the handler may call `@Protectable` services, and so needs the request's caller current
   * (default true). False spares the request the async-context tracking of SecurityContextHolder (the
   * request pipeline's `caller-context` step asks `needsCallerContext`); a protected method called
   * from such a route anyway sees no caller and refuses (AUTHENTICATION_REQUIRED).
   */
  callerContext?: boolean;
}

/** An exchange's route match as kept on it (`exchange.match.route`): valid for its registry while no route was added since. */
interface CachedMatch {
  readonly registry: RouteRegistry;
  readonly size: number;
  readonly match: RouteMatch;
}

/** What a lookup found: a route and its parameters, a path known only for other methods, or nothing. */
export type RouteMatch =
  | { kind: "found"; route: RouteDefinition; params: Record<string, string> }
  | { kind: "method-not-allowed"; allow: readonly string[] }
  | { kind: "not-found" };

/**
 * The application routes of an HTTP app, a view of the platform's one RouteTable (core `web`):
 * `createHttpApp` binds it to the platform's table, so a host's routes, `/health` and `/js/**` sit
 * in the table beside the chains' routes. Before it is bound (or when used alone) it keeps its own
 * table. Routes may be added at any time (the app dispatches through the table, not h3's router).
 * Among the routes that accept the method, the most specific path wins (literal, then a variable or
 * `*`, then `**`); on a tie the exact method beats GET-for-HEAD beats ANY.
 */
export class RouteRegistry {
  private readonly definitions: RouteDefinition[] = [];
  private readonly byRoute = new WeakMap<Route, RouteDefinition>();
  private table = new RouteTable();
  private bound = false;

  /**
   * Adds a route; the same method and path shape twice is a CONFIGURATION_INVALID error. A `:name`
   * segment is converted to `{name}` here, once: the definition listed and matched holds `{name}`.
   */
  add(route: RouteDefinition): this {
    const definition = Object.freeze({ ...route, path: routePattern(route.path) });
    this.byRoute.set(this.insert(this.table, definition), definition);
    this.definitions.push(definition);
    return this;
  }

  /** Every route in registration order. */
  list(): readonly RouteDefinition[] {
    return [...this.definitions];
  }

  /**
   * The match for an exchange's method and canonical path (on its segments, split once), made once
   * per request: kept on the exchange's match record with the route's variables (`routeParams`), so
   * a step that asks first (`needsCallerContext`) spares the dispatch a second lookup. A route added
   * since is seen: the lookup is made again.
   */
  matchExchange(exchange: HttpExchange): RouteMatch {
    const record = exchange.match;
    const cached = record.route as CachedMatch | undefined;
    if (cached?.registry === this && cached.size === this.definitions.length) return cached.match;
    // `lookup`, inline (this runs on every request).
    const found = this.table.match(exchange.method, exchange.path, exchange.segments);
    const match: RouteMatch =
      found.kind !== "found"
        ? found
        : {
            kind: "found",
            route: this.byRoute.get(found.route) ?? appDefinition(found.route),
            params: found.params,
          };
    const entry: CachedMatch = { registry: this, size: this.definitions.length, match };
    record.route = entry;
    record.variables = match.kind === "found" ? match.params : {};
    return match;
  }

  /**
   * False when the request's route declares `callerContext: false`, or when no route serves it (it
   * answers 404 or 405, running no handler); true otherwise. The request pipeline's `caller-context`
   * step (authz) asks it, before the handler: `matchExchange`, inline (the first lookup of a request
   * is made here, and the handler step reads it from the exchange).
   */
  needsCallerContext(exchange: HttpExchange): boolean {
    const record = exchange.match;
    const cached = record.route as CachedMatch | undefined;
    let match: RouteMatch;
    if (cached?.registry === this && cached.size === this.definitions.length) match = cached.match;
    else {
      const found = this.table.match(exchange.method, exchange.path, exchange.segments);
      match =
        found.kind !== "found"
          ? found
          : {
              kind: "found",
              route: this.byRoute.get(found.route) ?? appDefinition(found.route),
              params: found.params,
            };
      record.route = { registry: this, size: this.definitions.length, match } satisfies CachedMatch;
      record.variables = match.kind === "found" ? match.params : {};
    }
    return match.kind === "found" && match.route.callerContext !== false;
  }

  /**
   * The request pipeline's `handler` step for these routes: the matched route (404, or 405 with
   * Allow), its result held for the answer. The match a step before made (`needsCallerContext`) is
   * read from the exchange, inline; else `matchExchange` looks it up.
   */
  handlerStep(): PipelineStep {
    return {
      name: "route",
      apply: (exchange) => {
        const cached = exchange.match.route as CachedMatch | undefined;
        const match =
          cached?.registry === this && cached.size === this.definitions.length
            ? cached.match
            : this.matchExchange(exchange);
        if (match.kind === "not-found") throw new PlatformError("NOT_FOUND", "Not found");
        if (match.kind === "method-not-allowed") {
          exchange.response.headers.set("allow", match.allow.join(", "));
          throw new PlatformError("METHOD_NOT_ALLOWED", `Method ${exchange.method} is not allowed here`, {
            details: { allow: match.allow },
          });
        }
        const result = match.route.handler(exchange);
        // Bound, not wrapped: no function of ours runs between the handler's promise and holdResult.
        if (result instanceof Promise) return result.then(holdResult.bind(null, exchange));
        // holdResult, inline for a synchronous handler.
        const response = exchange.response;
        if (!response.committed && result !== undefined) response.body = result as typeof response.body;
        return undefined;
      },
    };
  }

  /** Finds the route for a method and canonical path (see the class comment for precedence). */
  match(method: string, path: string): RouteMatch {
    return this.lookup(method, path, undefined);
  }

  private lookup(method: string, path: string, parts: readonly string[] | undefined): RouteMatch {
    const match = this.table.match(method, path, parts);
    if (match.kind !== "found") return match;
    const route = this.byRoute.get(match.route);
    // A route another registry put in the same table: served as the table holds it.
    return { kind: "found", route: route ?? appDefinition(match.route), params: match.params };
  }

  /**
   * Moves this registry's routes into `table` (the platform's) and adds later ones there; once only
   * (an app serves one platform's table). Internal to the binding.
   */
  bindTo(table: RouteTable): void {
    if (table === this.table) return;
    if (this.bound) {
      throw new PlatformError("CONFIGURATION_INVALID", "This RouteRegistry already serves another platform");
    }
    for (const definition of this.definitions) this.byRoute.set(this.insert(table, definition), definition);
    this.table = table;
    this.bound = true;
  }

  private insert(table: RouteTable, d: RouteDefinition): Route {
    return table.insert({
      method: d.method,
      path: d.path,
      name: d.name ?? `app.${d.method} ${d.path}`,
      description: d.description ?? "",
      feature: d.feature ?? "app",
      access: d.access ?? "chain-rules",
      meta: d.meta,
      handler: (exchange) => d.handler(exchange),
    });
  }
}

function appDefinition(route: Route): RouteDefinition {
  return {
    method: route.method,
    path: route.path,
    // A route a core module put in the table reads its path parameters from its second argument.
    handler: (exchange) => route.handler(exchange, routeParams(exchange)),
    ...(route.meta ? { meta: { ...route.meta } } : {}),
    description: route.description,
    // The table's own name, feature and access (the access line and metrics name the route by them).
    name: route.name,
    feature: route.feature,
    access: route.access,
  };
}
