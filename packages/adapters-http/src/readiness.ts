import type { Platform } from "@keyward/core";
import { HealthIndicator } from "@keyward/core/ports";
import type { RouteContract } from "@keyward/core/web";
import { z } from "zod";
import type { RouteDefinition } from "./route-registry.js";

/**
 * Whether this app is draining: a graceful shutdown began (the server stops accepting, in-flight
 * requests finish), so `/health/ready` answers 503 and a load balancer sends nothing new.
 */
export class HttpReadiness {
  private stopping = false;

  /** Marks the start of a graceful shutdown; from now on the app is not ready. Cannot be undone. */
  beginShutdown(): void {
    this.stopping = true;
  }

  /** True once `beginShutdown` was called. */
  get shuttingDown(): boolean {
    return this.stopping;
  }
}

/** `GET <base>/live`: 200 `{ status: "UP" }` whenever the process answers (Kubernetes' liveness probe). */
export function livenessRoute(base = "/health"): RouteDefinition {
  return {
    method: "GET",
    path: `${base}/live`,
    description: "Liveness: the process answers",
    meta: { kind: "health", contract: LIVE_CONTRACT },
    name: "http.health.live",
    feature: "http",
    access: "public",
    callerContext: false,
    handler: (exchange) => {
      exchange.response.headers.set("cache-control", "no-store");
      exchange.json(200, { status: "UP" });
    },
  };
}

/**
 * `GET <base>/ready` (Kubernetes' readiness probe): 200 `{ status: "UP" }` when the platform is
 * started (its start hooks ran: stores connected, keys loaded, policies loaded), no graceful
 * shutdown began, and every HealthIndicator (a database adapter's) is UP; otherwise 503
 * `{ status: "DOWN", reasons: [...] }` naming each reason: `not-started`, `stopped`, `shutting-down`,
 * `dependency-down:<name>` (indicators' own reasons are left to `/health`).
 */
export function readinessRoute(
  platform: Pick<Platform, "state" | "container">,
  readiness: HttpReadiness,
  base = "/health",
): RouteDefinition {
  let indicators: readonly HealthIndicator[] | undefined;
  return {
    method: "GET",
    path: `${base}/ready`,
    description: "Readiness: started, not shutting down, every store reachable",
    meta: { kind: "health", contract: READY_CONTRACT },
    name: "http.health.ready",
    feature: "http",
    access: "public",
    callerContext: false,
    handler: (exchange) => {
      exchange.response.headers.set("cache-control", "no-store");
      indicators ??= platform.container.isRegistered(HealthIndicator, true)
        ? platform.container.resolveAll(HealthIndicator)
        : [];
      const reasons = notReadyReasons(platform.state, readiness, indicators);
      if (reasons.length === 0) exchange.json(200, { status: "UP" });
      else exchange.json(503, { status: "DOWN", reasons });
    },
  };
}

function notReadyReasons(
  state: Platform["state"],
  readiness: HttpReadiness,
  indicators: readonly HealthIndicator[],
): string[] {
  const reasons: string[] = [];
  if (state === "created" || state === "starting") reasons.push("not-started");
  if (state === "stopped") reasons.push("stopped");
  if (readiness.shuttingDown) reasons.push("shutting-down");
  for (const indicator of indicators) {
    let up = false;
    try {
      up = indicator.health().status === "UP";
    } catch {
      // An indicator that throws counts as down.
    }
    if (!up) reasons.push(`dependency-down:${indicator.name}`);
  }
  return reasons;
}

/** `/health/live`'s one answer. */
const LIVE_CONTRACT = {
  responses: {
    200: { description: "UP: the process answers", schema: z.object({ status: z.literal("UP") }) },
  },
} satisfies RouteContract;

/** `/health/ready`'s answers: UP, or DOWN with its reasons. */
const READY_CONTRACT = {
  responses: {
    200: {
      description: "UP: started, keys loaded, stores reachable",
      schema: z.object({ status: z.literal("UP") }),
    },
    503: {
      description:
        "DOWN: `not-started`, `stopped`, `shutting-down` or `dependency-down:<name>`, each reason listed",
      schema: z.object({ status: z.literal("DOWN"), reasons: z.array(z.string()) }),
    },
  },
} satisfies RouteContract;
