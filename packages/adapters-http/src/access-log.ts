import { currentAuthentication, defineProperty, prop } from "@keyward/core";
import type { Logger } from "@keyward/core/ports";
import type { HttpExchange, RouteTable } from "@keyward/core/web";
import type { RouteRegistry } from "./route-registry.js";

/** Whether the binding writes one access line per request (default true). */
export const HTTP_ACCESS_LOG_ENABLED = defineProperty({
  key: "platform.http.access-log.enabled",
  schema: prop.bool(),
  default: true,
  description:
    "One info line per request (method, canonical path without query, route, status, duration, correlation id, user id); false writes none.",
});

/** The message of every access line, so a log pipeline can pick them out. */
export const ACCESS_LOG_MESSAGE = "http.access";

/** Longest path an access line carries; a longer one is cut and marked with a trailing `…`. */
const MAX_LOGGED_PATH = 256;

/**
 * One access line per answered request, at info, through the platform's Logger: `method`, `path`
 * (the canonical path: never the query string, where secrets travel), `route` (the route table's
 * name, bounded; absent for a 404), `status`, `durationMs`, `correlationId` and `userId` (when the
 * request was authenticated or signed in). Never a header, a cookie, a token or a body. Requests
 * refused early (firewall 400, 401/403, 404, 429) and errors are logged alike. Cheap by design: one
 * fields object per request, no closure; the Logger makes it one JSON line.
 */
export class AccessLog {
  constructor(
    private readonly logger: Logger,
    private readonly routes: RouteRegistry,
    private readonly table: RouteTable,
  ) {}

  /**
   * Logs a request that became an exchange. `startedAt` is a `performance.now()` reading taken when
   * the request arrived; a broken logger never changes the answer.
   */
  exchange(exchange: HttpExchange, status: number, startedAt: number, correlationId: string): void {
    try {
      this.logger.info(ACCESS_LOG_MESSAGE, {
        method: exchange.method,
        path: loggedPath(exchange.path),
        route: this.routeName(exchange),
        status,
        durationMs: elapsedMs(startedAt),
        correlationId,
        userId: currentAuthentication(exchange)?.userId,
      });
    } catch {
      // Logging never changes an answer.
    }
  }

  /**
   * Logs a request that failed before it became an exchange (a URL the binding could not parse): no
   * path, since only the unparsed form exists, and the method only when it is a plain token.
   */
  unparsed(method: string, status: number, startedAt: number | undefined, correlationId: string): void {
    try {
      this.logger.info(ACCESS_LOG_MESSAGE, {
        method: /^[A-Z]{1,16}$/.test(method) ? method : "-",
        status,
        durationMs: startedAt === undefined ? undefined : elapsedMs(startedAt),
        correlationId,
      });
    } catch {
      // As above.
    }
  }

  /** The route's table name: the chain's entry route, else the application route; undefined for none. */
  private routeName(exchange: HttpExchange): string | undefined {
    const chain = exchange.match.chain;
    if (chain !== undefined) {
      const entry = this.table.matchChain(chain.id, exchange.method, exchange.path, exchange.segments);
      if (entry !== undefined) return entry.route.name;
    }
    if (exchange.segments === undefined) return undefined;
    const match = this.routes.matchExchange(exchange);
    if (match.kind !== "found") return undefined;
    // The name the table holds (RouteRegistry's default for an unnamed route).
    return match.route.name ?? `app.${match.route.method} ${match.route.path}`;
  }
}

function loggedPath(path: string): string {
  return path.length <= MAX_LOGGED_PATH ? path : `${path.slice(0, MAX_LOGGED_PATH)}…`;
}

/** Milliseconds since `startedAt`, to the hundredth. */
export function elapsedMs(startedAt: number): number {
  return Math.round((performance.now() - startedAt) * 100) / 100;
}
