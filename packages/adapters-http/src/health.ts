import type { Platform } from "@keyward/core";
import { type DependencyHealth, HealthIndicator } from "@keyward/core/ports";
import type { RouteContract } from "@keyward/core/web";
import { z } from "zod";
import type { RouteDefinition } from "./route-registry.js";

/**
 * `GET <path>` (default `/health`): 200 `{ status: "UP", state }` once the platform is started,
 * 503 `{ status: "DOWN" }` before start-up finished and after stop, so a load balancer drains us.
 * With HealthIndicator members registered (a database adapter), the answer adds `dependencies`
 * (`{ mongodb: { status: "UP" } }`) and is 503 DOWN while any of them is down, naming it.
 */
export function healthRoute(
  platform: Pick<Platform, "state" | "container">,
  path = "/health",
): RouteDefinition {
  let indicators: readonly HealthIndicator[] | undefined;
  return {
    method: "GET",
    path,
    description: "Liveness and readiness of the platform",
    meta: { kind: "health", contract: HEALTH_CONTRACT },
    name: "http.health",
    feature: "http",
    access: "public",
    callerContext: false,
    handler: (exchange) => {
      exchange.response.headers.set("cache-control", "no-store");
      const state = platform.state;
      if (state !== "started") {
        exchange.json(503, { status: "DOWN" });
        return;
      }
      indicators ??= platform.container.isRegistered(HealthIndicator, true)
        ? platform.container.resolveAll(HealthIndicator)
        : [];
      if (indicators.length === 0) {
        exchange.json(200, { status: "UP", state });
        return;
      }
      const dependencies: Record<string, DependencyHealth> = {};
      for (const indicator of indicators) dependencies[indicator.name] = healthOf(indicator);
      const down = Object.values(dependencies).some((d) => d.status === "DOWN");
      exchange.json(down ? 503 : 200, { status: down ? "DOWN" : "UP", state, dependencies });
    },
  };
}

const HEALTH_CONTRACT = {
  responses: {
    200: {
      description: "UP: started, every dependency up",
      schema: z.looseObject({ status: z.literal("UP"), state: z.string() }),
    },
    503: {
      description: "DOWN: not started, stopping, or a dependency down (named in `dependencies`)",
      schema: z.looseObject({ status: z.literal("DOWN") }),
    },
  },
} satisfies RouteContract;

/** An indicator's report; one that throws counts as DOWN (its error is not shown). */
function healthOf(indicator: HealthIndicator): DependencyHealth {
  try {
    const { status, reason } = indicator.health();
    return status === "UP"
      ? { status }
      : { status: "DOWN", ...(reason ? { reason: reason.slice(0, 200) } : {}) };
  } catch {
    return { status: "DOWN", reason: "the health check failed" };
  }
}
