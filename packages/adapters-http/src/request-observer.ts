import { currentAuthentication } from "@keyward/core";
import { isPlatformError } from "@keyward/core/errors";
import type { Logger } from "@keyward/core/ports";
import type { HttpExchange, RouteTable } from "@keyward/core/web";
import { ACCESS_LOG_MESSAGE, type AccessLine, loggedMethod, loggedPath } from "./access-log.js";
import { NO_ROUTE, type PlatformMetrics } from "./metrics/platform-metrics.js";
import type { RouteRegistry } from "./route-registry.js";

/** What the binding tells operators about each answered request. */
export interface RequestObserverOptions {
  /** Where access lines go; undefined: no access log (`platform.http.access-log.enabled=false`). */
  readonly accessLog: Logger | undefined;
  /** The platform's metrics; undefined: none (`platform.http.metrics.enabled=false`). */
  readonly metrics: PlatformMetrics | undefined;
  readonly routes: RouteRegistry;
  readonly table: RouteTable;
}

/**
 * Sees every answer the binding writes, once, after it is made: writes the access line and counts
 * the request (route name, status, duration). The route's name is found once for both: the chain's
 * entry route the request reached, else the application route (the handler's lookup, kept on the
 * exchange), else none. Refused requests (firewall 400, 401/403, 404, 429) and errors are seen
 * alike. Never throws: observing never changes an answer.
 */
export class RequestObserver {
  constructor(private readonly o: RequestObserverOptions) {}

  /** A request that became an exchange was answered with `status`; `startedAt` is its `performance.now()`. */
  answered(exchange: HttpExchange, status: number, startedAt: number, correlationId: string): void {
    try {
      const route = this.routeName(exchange);
      const ms = performance.now() - startedAt;
      this.o.metrics?.request(route ?? NO_ROUTE, status, ms / 1000);
      if (this.o.accessLog === undefined) return;
      const line: AccessLine = {
        method: exchange.method,
        path: loggedPath(exchange.path),
        route,
        status,
        durationMs: Math.round(ms * 100) / 100,
        correlationId,
        userId: currentAuthentication(exchange)?.userId,
      };
      this.o.accessLog.info(ACCESS_LOG_MESSAGE, line as unknown as Record<string, unknown>);
    } catch {
      // Observing never changes an answer.
    }
  }

  /** A request that failed before it became an exchange (a URL the binding could not parse). */
  unparsed(method: string, status: number, startedAt: number | undefined, correlationId: string): void {
    try {
      const ms = startedAt === undefined ? 0 : performance.now() - startedAt;
      this.o.metrics?.request(NO_ROUTE, status, ms / 1000);
      const line: AccessLine = {
        method: loggedMethod(method),
        path: undefined,
        route: undefined,
        status,
        durationMs: Math.round(ms * 100) / 100,
        correlationId,
        userId: undefined,
      };
      this.o.accessLog?.info(ACCESS_LOG_MESSAGE, line as unknown as Record<string, unknown>);
    } catch {
      // As above.
    }
  }

  /** Counts an error answer that a store's outage caused (503 DEPENDENCY_UNAVAILABLE), by dependency. */
  failed(error: unknown): void {
    if (this.o.metrics === undefined || !isPlatformError(error, "DEPENDENCY_UNAVAILABLE")) return;
    this.o.metrics.dependencyError(error.details?.dependency ?? "unknown");
  }

  private routeName(exchange: HttpExchange): string | undefined {
    const chain = exchange.match.chain;
    if (chain !== undefined) {
      const entry = this.o.table.matchChain(chain.id, exchange.method, exchange.path, exchange.segments);
      if (entry !== undefined) return entry.route.name;
    }
    if (exchange.segments === undefined) return undefined;
    const match = this.o.routes.matchExchange(exchange);
    if (match.kind !== "found") return undefined;
    // The name the table holds (RouteRegistry's default for an unnamed route).
    return match.route.name ?? `app.${match.route.method} ${match.route.path}`;
  }
}
