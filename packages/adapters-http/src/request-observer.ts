import { currentAuthentication } from "@keyward/core";
import { isPlatformError } from "@keyward/core/errors";
import type { Logger } from "@keyward/core/ports";
import type { HttpExchange, RouteTable } from "@keyward/core/web";
import { ACCESS_LOG_MESSAGE, type AccessLine, loggedMethod, MAX_LOGGED_PATH } from "./access-log.js";
import { NO_ROUTE, type PlatformMetrics, type RouteInstruments } from "./metrics/platform-metrics.js";
import { LATENCY_BUCKETS } from "./metrics/request-latency-histogram.js";
import type { RouteMatch, RouteRegistry } from "./route-registry.js";

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
  /** Each route name's bound request metrics (PlatformMetrics.requestInstruments), kept per route. */
  private readonly instruments = new Map<string, RouteInstruments>();

  constructor(private readonly o: RequestObserverOptions) {}

  /**
   * A request that became an exchange was answered with `status`; `startedAt` is its `performance.now()`.
   * One function per request: the route's name, the metrics and the access line are inline (they
   * run on every request); `loggedPath` and `PlatformMetrics.request` do the same for other callers.
   */
  answered(exchange: HttpExchange, status: number, startedAt: number, correlationId: string): void {
    try {
      // The route's name, from what the request's own lookups left on the exchange (never a second
      // lookup): the chain's entry route it reached, else the application route the handler step
      // found, else none (the table's name, RouteRegistry's default for an unnamed route).
      // A request refused before a lookup ran (a 401 before the entry step or the handler) is looked
      // up here, so it is named as before.
      const match = exchange.match;
      const chain = match.chain;
      const entry =
        match.entry !== undefined || chain === undefined
          ? match.entry
          : this.o.table.matchChain(chain.id, exchange.method, exchange.path, exchange.segments);
      let route: string | undefined = entry?.route.name;
      if (route === undefined && exchange.segments !== undefined) {
        const found =
          (match.route as { match?: RouteMatch } | undefined)?.match ?? this.o.routes.matchExchange(exchange);
        // The name the table holds (RouteRegistry's default for an unnamed route).
        if (found.kind === "found")
          route = found.route.name ?? `app.${found.route.method} ${found.route.path}`;
      }
      const ms = performance.now() - startedAt;
      const metrics = this.o.metrics;
      if (metrics !== undefined) {
        const name = route ?? NO_ROUTE;
        let instruments = this.instruments.get(name);
        if (instruments === undefined) {
          instruments = metrics.requestInstruments(name);
          this.instruments.set(name, instruments);
        }
        (instruments.byStatus.get(status) ?? instruments.count(status)).n += 1;
        // countLatency, inline.
        const seconds = ms / 1000;
        const latency = instruments.latency;
        let b = 0;
        while (b < LATENCY_BUCKETS.length && !(seconds <= (LATENCY_BUCKETS[b] as number))) b++;
        latency.buckets[b] = (latency.buckets[b] as number) + 1;
        latency.sum += seconds;
        latency.count += 1;
      }
      if (this.o.accessLog === undefined) return;
      const path = exchange.path;
      const line: AccessLine = {
        method: exchange.method,
        // The canonical path, never the query string (where secrets travel); loggedPath, inline.
        path: path.length <= MAX_LOGGED_PATH ? path : `${path.slice(0, MAX_LOGGED_PATH)}…`,
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
}
