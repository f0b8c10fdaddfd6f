import { PlatformError } from "../kernel/platform-error.js";
import type { HttpExchange, ResponseBody } from "./http-exchange.js";
import {
  compareSpecificity,
  compilePathPattern,
  type PathPattern,
  routePattern,
  splitPath,
} from "./path-pattern.js";

/** The HTTP methods a route can be registered for (`ANY`: every method, for application routes). */
export type RouteMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS" | "ANY";

/**
 * Who may call a route, as documented (the handler or the chain enforces it; the table only says it):
 * - `public`: anyone (sign-in endpoints, login pages, health, scripts);
 * - `authenticated`: a signed-in caller (the route refuses others with 401);
 * - `admin`: ROLE_ADMIN, checked by the route itself whatever the chain's rules say;
 * - `mfa-flow`: a caller inside an MFA flow (bound by its cookie or headers);
 * - `reset-link`: whoever holds a password-reset link;
 * - `chain-rules`: decided by the chain's authorization rules and policies (application routes).
 */
export type RouteAccess = "public" | "authenticated" | "admin" | "mfa-flow" | "reset-link" | "chain-rules";

/**
 * Where a chain route runs in its chain: `entry` (an entry point, before authorization: sign-in
 * processing, logout, token endpoints, `/api/me`, MFA API and pages, passkey endpoints) or `mounted`
 * (an API mounted after authorization, e.g. `addFilterAfter(userAdminApi(), "authorization")`).
 * Application routes (no chain) run after the whole chain.
 */
export type RouteStage = "entry" | "mounted";

/**
 * A route's handler: works on the exchange with the path's variables (`{name}` decoded once; `*` and
 * `**` as sent).
 * A returned object, array, string or bytes is written with status 200 unless the handler committed
 * the exchange itself.
 */
export type TableRouteHandler = (
  exchange: HttpExchange,
  params: Readonly<Record<string, string>>,
  // biome-ignore lint/suspicious/noConfusingVoidType: lets `async (exchange) => { ... }` (Promise<void>) be a handler
) => Promise<ResponseBody | void> | ResponseBody | void;

/** One endpoint the platform serves. */
export interface Route {
  readonly method: RouteMethod;
  /**
   * Path pattern in the one path language (see compilePathPattern): literal segments, `{name}` and
   * `{name:regex}`, `*` at most once, `**` last (zero or more segments). `:name` is accepted and
   * stored as `{name}`.
   */
  readonly path: string;
  /** Stable handler name, `<feature>.<endpoint>` (e.g. `identity.me`). */
  readonly name: string;
  /** One line: what the endpoint does. */
  readonly description: string;
  /** The feature or plugin that owns it (e.g. `identity.form`, `mfa`, `authz.admin`, `http`, `app`). */
  readonly feature: string;
  readonly access: RouteAccess;
  /** The owning chain's id; absent for application routes, served after the chain that matched. */
  readonly chain?: string | undefined;
  /** Where a chain route runs (default `entry`); ignored for application routes. */
  readonly stage?: RouteStage | undefined;
  /** Free data for resource scanners and docs (e.g. the protected resource name). */
  readonly meta?: Readonly<Record<string, unknown>> | undefined;
  readonly handler: TableRouteHandler;
}

/** What a lookup found: a route and its parameters, a path known only for other methods, or nothing. */
export type RouteTableMatch =
  | { kind: "found"; route: Route; params: Record<string, string> }
  | { kind: "method-not-allowed"; allow: readonly string[] }
  | { kind: "not-found" };

interface Entry {
  readonly route: Route;
  readonly path: PathPattern;
  /** How many segments every path it matches has; -1 when it has a `**` (any count). */
  readonly segmentCount: number;
}

/**
 * The routes of one scope (the application, or one chain): literal paths by path; the patterns that
 * may match a path, by its first segment: those whose first segment is that literal
 * (`/api/orders/{id}` under `api`) together with those whose first segment is not literal (`/**`,
 * `/:x`), which are also kept apart for any other first segment. Each list is in registration
 * order, so a lookup reads one list. (Whether a first-literal pattern comes before a first-variable
 * one does not matter: their specificities differ at the first segment, so they never tie.)
 */
interface Scope {
  readonly literal: Map<string, Entry[]>;
  readonly patternsByFirst: Map<string, Entry[]>;
  readonly patternsAnyFirst: Entry[];
}

const NONE: readonly Entry[] = [];

const NOT_FOUND: RouteTableMatch = { kind: "not-found" };
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * Every endpoint the platform serves, in one table: application routes (the HTTP binding's and the
 * host's) and the routes each security filter chain owns. Paths are matched in the one canonical
 * form (`HttpExchange.path`), so the route served and the path the policies judged are one string.
 * A lookup is one map read for literal paths plus a walk over the scope's patterns that share the
 * path's first segment (segment compares on a path split once, no regex).
 *
 * Application routes: among those that accept the method, the most specific path wins (literal, then
 * a variable or `*`, then `**`); on a tie the exact method beats GET-for-HEAD beats ANY. Chain routes match
 * the exact method only: a request a chain route does not take goes on through the chain as before.
 */
export class RouteTable {
  private readonly entries: Entry[] = [];
  private readonly scopes = new Map<string, Scope>();
  /** The same scopes of chains, by chain id (matchChain runs on every request: no key string made). */
  private readonly chainScopes = new Map<string, Scope>();

  /**
   * Adds a route; the same method and path shape twice on one chain (or among app routes) is
   * CONFIGURATION_INVALID. A `:name` segment is stored as `{name}`.
   */
  add(route: Route): this {
    this.insert(route);
    return this;
  }

  /** Adds a route as `add` does and returns it as stored (frozen), the value `list` and `match` hand out. */
  insert(written: Route): Route {
    const route = { ...written, path: routePattern(written.path) };
    const path = compilePathPattern(route.path, "route");
    const scope = this.scope(route.chain);
    const clash = this.entries.find(
      (e) => e.route.chain === route.chain && e.route.method === route.method && e.path.shape === path.shape,
    );
    if (clash) {
      const where = route.chain === undefined ? "" : ` on chain ${route.chain}`;
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        `Route ${route.method} ${route.path}${where} is already registered (as ${clash.route.name} ${clash.route.path})`,
        { details: { method: route.method, path: route.path, chain: route.chain, name: route.name } },
      );
    }
    const segmentCount = path.segments.some((s) => s.kind === "rest") ? -1 : path.segments.length;
    const entry: Entry = { route: Object.freeze(route), path, segmentCount };
    this.entries.push(entry);
    if (path.segments.every((s) => s.kind === "literal")) {
      const list = scope.literal.get(path.shape);
      if (list) list.push(entry);
      else scope.literal.set(path.shape, [entry]);
    } else {
      const head = path.segments[0]!;
      const first = head.kind === "literal" ? head.text : undefined;
      if (first === undefined) {
        scope.patternsAnyFirst.push(entry);
        for (const list of scope.patternsByFirst.values()) list.push(entry);
      } else {
        const list = scope.patternsByFirst.get(first);
        if (list) list.push(entry);
        else scope.patternsByFirst.set(first, [entry, ...scope.patternsAnyFirst]);
      }
    }
    return entry.route;
  }

  /** Every route in registration order. */
  list(): readonly Route[] {
    return this.entries.map((e) => e.route);
  }

  /** The application routes (no chain), in registration order. */
  appRoutes(): readonly Route[] {
    return this.entries.filter((e) => e.route.chain === undefined).map((e) => e.route);
  }

  /**
   * Finds the application route for a method and a canonical path (see the class comment for
   * precedence). `parts` is the path split into segments (an exchange's `segments`, split once per
   * request); without them the path is split here.
   */
  match(method: string, path: string, parts: readonly string[] = splitPath(path)): RouteTableMatch {
    const scope = this.scopes.get("");
    if (!scope) return NOT_FOUND;
    const upper = method.toUpperCase();
    let best: Entry | undefined;
    let bestParams: Record<string, string> = NO_PARAMS;
    let bestPreference = 0;
    // Whether a route of the path refused the method: the Allow list is gathered only for a 405.
    let refused = false;
    // Whether the best so far is a literal route for the exact method (see the loop).
    let settled = false;
    // The literal routes of the path, then the patterns that may match it, in one loop (no helper
    // per candidate: this runs on every request).
    const literal = scope.literal.get(path) ?? NONE;
    const patterns = scope.patternsByFirst.get(parts[0]!) ?? scope.patternsAnyFirst;
    const count = literal.length + patterns.length;
    for (let i = 0; i < count; i++) {
      const fromPattern = i >= literal.length;
      // A literal path for the exact method is the most specific there is: no pattern can beat it.
      if (fromPattern && settled) break;
      const entry = (fromPattern ? patterns[i - literal.length] : literal[i]) as Entry;
      // A pattern of another length cannot match: told without asking it.
      if (fromPattern && entry.segmentCount !== -1 && entry.segmentCount !== parts.length) continue;
      const params = fromPattern ? entry.path.match(parts) : {};
      if (params === null) continue;
      // On equal specificity: the exact method, then GET for HEAD, then ANY; another method is refused.
      const routeMethod = entry.route.method;
      const preference =
        routeMethod === upper
          ? 0
          : upper === "HEAD" && routeMethod === "GET"
            ? 1
            : routeMethod === "ANY"
              ? 2
              : -1;
      if (preference < 0) {
        refused = true;
        continue;
      }
      const order = best
        ? compareSpecificity(entry.path.specificity, best.path.specificity) || preference - bestPreference
        : -1;
      if (order < 0) {
        best = entry;
        bestParams = params;
        bestPreference = preference;
        settled = !fromPattern && preference === 0;
      }
    }
    if (best) return { kind: "found", route: best.route, params: bestParams };
    if (!refused) return NOT_FOUND;
    return { kind: "method-not-allowed", allow: allowedMethods(literal, patterns, parts) };
  }

  /**
   * Finds a chain's route for this method and canonical path: a literal path before a pattern, then
   * the most specific pattern; the exact method before `ANY` (a resource that answers 405 itself);
   * never GET for HEAD. Undefined when the chain has none. `parts` as for `match`.
   */
  matchChain(
    chain: string,
    method: string,
    path: string,
    parts: readonly string[] = splitPath(path),
  ): { route: Route; params: Record<string, string> } | undefined {
    const scope = this.chainScopes.get(chain);
    if (!scope) return undefined;
    const literal = scope.literal.get(path);
    if (literal) {
      let any: Entry | undefined;
      for (const entry of literal) {
        if (entry.route.method === method) return { route: entry.route, params: NO_PARAMS };
        if (entry.route.method === "ANY") any = entry;
      }
      if (any) return { route: any.route, params: NO_PARAMS };
    }
    let best: { entry: Entry; params: Record<string, string>; rank: number } | undefined;
    for (const entry of scope.patternsByFirst.get(parts[0]!) ?? scope.patternsAnyFirst) {
      const rank = entry.route.method === method ? 0 : entry.route.method === "ANY" ? 1 : -1;
      if (rank < 0 || (entry.segmentCount !== -1 && entry.segmentCount !== parts.length)) continue;
      const params = entry.path.match(parts);
      if (!params) continue;
      const order = best
        ? compareSpecificity(entry.path.specificity, best.entry.path.specificity) || rank - best.rank
        : -1;
      if (order < 0) best = { entry, params, rank };
    }
    return best && { route: best.entry.route, params: best.params };
  }

  private scope(chain: string | undefined): Scope {
    const key = chain === undefined ? "" : `#${chain}`;
    let scope = this.scopes.get(key);
    if (!scope) {
      scope = { literal: new Map(), patternsByFirst: new Map(), patternsAnyFirst: [] };
      this.scopes.set(key, scope);
      if (chain !== undefined) this.chainScopes.set(chain, scope);
    }
    return scope;
  }
}

/**
 * The Allow list of a path every route of which refused the method: each method of a literal route
 * of the path and of a pattern that matches it (GET brings HEAD), sorted.
 */
function allowedMethods(
  literal: readonly Entry[],
  patterns: readonly Entry[],
  parts: readonly string[],
): string[] {
  const allow = new Set<string>();
  for (const entry of [...literal, ...patterns]) {
    const fromPattern = !literal.includes(entry);
    if (fromPattern && entry.segmentCount !== -1 && entry.segmentCount !== parts.length) continue;
    if (fromPattern && entry.path.match(parts) === null) continue;
    allow.add(entry.route.method);
    if (entry.route.method === "GET") allow.add("HEAD");
  }
  return [...allow].sort();
}
