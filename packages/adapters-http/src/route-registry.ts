import { PlatformError } from "@platform/core";
import { type HttpExchange, type ResponseBody } from "@platform/core/web";
import { compareSpecificity, RoutePath, splitPath } from "./route-path.js";

/** The HTTP methods a route can be registered for. */
export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

/**
 * An application route, framework-free: it works on the exchange. A returned object, array, string
 * or bytes is written with status 200 unless the handler committed the exchange itself.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: lets `async (exchange) => { ... }` (Promise<void>) be a handler
export type RouteHandler = (exchange: HttpExchange) => Promise<ResponseBody | void> | ResponseBody | void;

/** One route: method (or ANY), path pattern (`/a/:id`, `/js/**`), handler, and data for scanners. */
export interface RouteDefinition {
  method: HttpMethod | "ANY";
  path: string;
  handler: RouteHandler;
  /** Free data for resource scanners and docs (e.g. the protected resource name). */
  meta?: Record<string, unknown>;
  description?: string;
  /**
   * Whether the handler may call `@Protectable` services, and so needs the request's caller current
   * (default true). False spares the request the async-context tracking of SecurityContextHolder when
   * its interceptor is given `when: (ex) => routes.needsCallerContext(ex)`; a protected method called
   * from such a route anyway sees no caller and refuses (AUTHENTICATION_REQUIRED).
   */
  callerContext?: boolean;
}

/** What a lookup found: a route and its parameters, a path known only for other methods, or nothing. */
export type RouteMatch =
  | { kind: "found"; route: RouteDefinition; params: Record<string, string> }
  | { kind: "method-not-allowed"; allow: readonly string[] }
  | { kind: "not-found" };

interface Entry {
  readonly route: RouteDefinition;
  readonly path: RoutePath;
  readonly specificity: readonly number[];
}

/** Method preference on equal specificity: the exact method, then GET for HEAD, then ANY (-1: no). */
function methodPreference(routeMethod: string, requested: string): number {
  if (routeMethod === requested) return 0;
  if (requested === "HEAD" && routeMethod === "GET") return 1;
  return routeMethod === "ANY" ? 2 : -1;
}

/** Exchange attribute caching an exchange's match (per registry, while no route was added since). */
const MATCH_ATTRIBUTE = "route.match";

interface CachedMatch {
  readonly registry: RouteRegistry;
  readonly size: number;
  readonly match: RouteMatch;
}

/**
 * Our own list of routes: h3 keeps no public one, and the resource scanner needs to read every
 * route with its meta. Routes may be added at any time (the app dispatches through this registry,
 * not through h3's router). Among the routes that accept the method, the most specific path wins
 * (literal, then `:param`, then `**`); on a tie the exact method beats GET-for-HEAD beats ANY.
 */
export class RouteRegistry {
  private readonly entries: Entry[] = [];

  /** Adds a route; the same method and path shape twice is a CONFIGURATION_INVALID error. */
  add(route: RouteDefinition): this {
    const path = new RoutePath(route.path);
    const clash = this.entries.find((e) => e.route.method === route.method && e.path.shape === path.shape);
    if (clash) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        `Route ${route.method} ${route.path} is already registered (as ${clash.route.path})`,
        { details: { method: route.method, path: route.path } },
      );
    }
    this.entries.push({ route: Object.freeze({ ...route }), path, specificity: path.specificity() });
    return this;
  }

  /** Every route in registration order. */
  list(): readonly RouteDefinition[] {
    return this.entries.map((e) => e.route);
  }

  /**
   * The match for an exchange's method and canonical path, made once per request: kept in the
   * exchange's attributes, so an interceptor that asks first (`needsCallerContext`) spares the
   * dispatch a second lookup.
   */
  matchExchange(exchange: HttpExchange): RouteMatch {
    const cached = exchange.attributes.get(MATCH_ATTRIBUTE) as CachedMatch | undefined;
    if (cached?.registry === this && cached.size === this.entries.length) return cached.match;
    const match = this.match(exchange.method, exchange.path);
    const entry: CachedMatch = { registry: this, size: this.entries.length, match };
    exchange.attributes.set(MATCH_ATTRIBUTE, entry);
    return match;
  }

  /**
   * False when the request's route declares `callerContext: false`, or when no route serves it (it
   * answers 404 or 405, running no handler); true otherwise. Meant as SecurityContextHolder's
   * interceptor `when`.
   */
  needsCallerContext(exchange: HttpExchange): boolean {
    const match = this.matchExchange(exchange);
    return match.kind === "found" && match.route.callerContext !== false;
  }

  /** Finds the route for a method and path (see the class comment for precedence). */
  match(method: string, path: string): RouteMatch {
    const parts = splitPath(path);
    const upper = method.toUpperCase();
    // One pass, nothing sorted: a candidate replaces the best only when strictly better, so equal
    // ones keep registration order.
    let best: { entry: Entry; params: Record<string, string>; preference: number } | undefined;
    const pathKnown: Entry[] = [];
    for (const entry of this.entries) {
      const params = entry.path.matchParts(parts);
      if (!params) continue;
      pathKnown.push(entry);
      const preference = methodPreference(entry.route.method, upper);
      if (preference < 0) continue;
      if (
        !best ||
        (compareSpecificity(entry.specificity, best.entry.specificity) || preference - best.preference) < 0
      ) {
        best = { entry, params, preference };
      }
    }
    if (best) return { kind: "found", route: best.entry.route, params: best.params };
    if (pathKnown.length === 0) return { kind: "not-found" };
    const allow = new Set<string>();
    for (const entry of pathKnown) {
      allow.add(entry.route.method);
      if (entry.route.method === "GET") allow.add("HEAD");
    }
    return { kind: "method-not-allowed", allow: [...allow].sort() };
  }
}
