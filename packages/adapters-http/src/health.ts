import type { Platform } from "@platform/core";
import type { RouteDefinition } from "./route-registry.js";

/**
 * `GET <path>` (default `/health`): 200 `{ status: "UP", state }` once the platform is started,
 * 503 `{ status: "DOWN" }` before start-up finished and after stop, so a load balancer drains us.
 */
export function healthRoute(platform: Pick<Platform, "state">, path = "/health"): RouteDefinition {
  return {
    method: "GET",
    path,
    description: "Liveness and readiness of the platform",
    meta: { kind: "health" },
    name: "http.health",
    feature: "http",
    access: "public",
    callerContext: false,
    handler: (exchange) => {
      exchange.response.headers.set("cache-control", "no-store");
      const state = platform.state;
      if (state === "started") exchange.json(200, { status: "UP", state });
      else exchange.json(503, { status: "DOWN" });
    },
  };
}
