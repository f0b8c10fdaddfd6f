import { timingSafeEqual } from "node:crypto";
import { currentAuthentication } from "@keyward/core";
import { PlatformError } from "@keyward/core/errors";
import type { HttpExchange, PipelineContribution, RouteContract } from "@keyward/core/web";
import type { RouteDefinition } from "../route-registry.js";
import { isTrustedProxyAddress, parseTrustedProxies, type TrustedProxies } from "../trusted-proxies.js";
import type { MetricsAudience } from "./metrics-properties.js";
import type { PlatformMetrics } from "./platform-metrics.js";

/** Shortest shared token the `bearer` audience accepts. */
export const MIN_METRICS_TOKEN_LENGTH = 32;

/** The authority of the `admin` audience. */
const ADMIN_AUTHORITY = "ROLE_ADMIN";

/** What the metrics route serves, to whom. */
export interface MetricsRouteOptions {
  readonly metrics: PlatformMetrics;
  readonly path: string;
  readonly audience: MetricsAudience;
  /** The shared token of the `bearer` audience (checked by createHttpApp; unused otherwise). */
  readonly bearerToken: string;
}

const LOOPBACK = parseTrustedProxies("loopback") as TrustedProxies;

/**
 * `GET <path>` (default `/metrics`): this platform's metrics in the Prometheus text format, for its
 * audience only. `loopback`: the client address the binding resolved (the socket peer, or the
 * client a trusted proxy names; never a header the client alone writes) is 127.0.0.0/8 or ::1, else
 * 404 NOT_FOUND, as if there were no such endpoint. `admin`: a signed-in caller with ROLE_ADMIN,
 * else 401 AUTHENTICATION_REQUIRED or 403 ACCESS_DENIED. `bearer`: `Authorization: Bearer <token>`
 * equal (in constant time) to the configured token, else 401 AUTHENTICATION_REQUIRED.
 */
export function metricsRoute(options: MetricsRouteOptions): RouteDefinition {
  const { metrics, audience } = options;
  const expected = Buffer.from(options.bearerToken, "utf8");
  return {
    method: "GET",
    path: options.path,
    description: `Prometheus metrics of this platform (audience: ${audience})`,
    meta: { kind: "metrics", audience, contract: METRICS_CONTRACT },
    name: "http.metrics",
    feature: "http",
    access: audience === "admin" ? "admin" : "public",
    callerContext: false,
    handler: async (exchange) => {
      admit(exchange, audience, expected);
      exchange.response.headers.set("cache-control", "no-store");
      exchange.response.headers.set("content-type", metrics.registry.contentType);
      return metrics.text();
    },
  };
}

function admit(exchange: HttpExchange, audience: MetricsAudience, expected: Buffer): void {
  if (audience === "loopback") {
    if (!isTrustedProxyAddress(LOOPBACK, exchange.remoteAddress))
      throw new PlatformError("NOT_FOUND", "Not found");
    return;
  }
  if (audience === "admin") {
    const caller = currentAuthentication(exchange);
    if (caller === undefined)
      throw new PlatformError("AUTHENTICATION_REQUIRED", "Sign in to read the metrics");
    if (!caller.authorities.includes(ADMIN_AUTHORITY))
      throw new PlatformError("ACCESS_DENIED", "Only administrators read the metrics");
    return;
  }
  if (!bearerMatches(exchange.header("authorization"), expected)) {
    exchange.response.headers.set("www-authenticate", 'Bearer realm="metrics"');
    throw new PlatformError("AUTHENTICATION_REQUIRED", "Send the metrics token as a bearer token");
  }
}

/**
 * The `bearer` audience's own credential, whatever the chain: a chain that reads bearer access
 * tokens would refuse the shared metrics token as an invalid access token (401 INVALID_TOKEN) before
 * the route saw it. This step, just before identity's `authentication` place (after the firewall
 * and the chain choice, so the path is the canonical one), answers a GET or HEAD of exactly the
 * metrics path whose `Authorization: Bearer` is the shared token (constant time) with the metrics,
 * and lets every other request go on: a wrong or missing token reaches the chain and the route,
 * which refuse it as before. The route stays in the route table (its contract, its name in the
 * access line); this step is the same check made before the chain reads the header.
 */
export function metricsCredentialStep(options: MetricsRouteOptions): PipelineContribution {
  const expected = Buffer.from(options.bearerToken, "utf8");
  const { metrics, path } = options;
  return {
    before: "authentication",
    step: {
      name: "metrics-credential",
      apply: (exchange) => {
        if (exchange.path !== path || (exchange.method !== "GET" && exchange.method !== "HEAD")) return;
        const header = exchange.header("authorization");
        if (header === undefined || !bearerMatches(header, expected)) return;
        return metrics.text().then((text) => {
          const res = exchange.response;
          res.status = 200;
          res.headers.set("cache-control", "no-store");
          res.headers.set("content-type", metrics.registry.contentType);
          res.body = text;
          res.committed = true;
        });
      },
    },
  };
}

/** True when `header` is `Bearer <token>` and the token equals `expected`, compared in constant time. */
export function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  if (header === undefined || expected.length === 0) return false;
  if (header.length < 7 || header.slice(0, 7).toLowerCase() !== "bearer ") return false;
  const given = Buffer.from(header.slice(7).trim(), "utf8");
  // Equal lengths for timingSafeEqual; the length comparison itself only tells a wrong length.
  const same = given.length === expected.length;
  return timingSafeEqual(same ? given : expected, expected) && same;
}

/** The metrics route's answer; a caller outside the audience gets 404, 401 or 403 (by audience). */
const METRICS_CONTRACT = {
  responses: { 200: { description: "The metrics, Prometheus text format 0.0.4", media: "text" } },
  errors: ["NOT_FOUND", "AUTHENTICATION_REQUIRED", "ACCESS_DENIED"],
} satisfies RouteContract;
