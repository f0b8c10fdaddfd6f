import type { Platform } from "@keyward/core";
import { DecisionPipeline } from "@keyward/core/decisions";
import { ErrorCatalog, PlatformError } from "@keyward/core/errors";
import { type Logger, UrlAuthorizationManager } from "@keyward/core/ports";
import type { PipelineContribution, RouteTable } from "@keyward/core/web";
import { HTTP_ACCESS_LOG_ENABLED } from "./access-log.js";
import {
  HTTP_METRICS_AUDIENCE,
  HTTP_METRICS_BEARER_TOKEN,
  HTTP_METRICS_ENABLED,
  HTTP_METRICS_PATH,
} from "./metrics/metrics-properties.js";
import {
  MIN_METRICS_TOKEN_LENGTH,
  type MetricsRouteOptions,
  metricsCredentialStep,
  metricsRoute,
} from "./metrics/metrics-route.js";
import { PLATFORM_METRICS, type PlatformMetrics } from "./metrics/platform-metrics.js";
import { HttpReadiness, livenessRoute, readinessRoute } from "./readiness.js";
import { RequestObserver } from "./request-observer.js";
import type { RouteRegistry } from "./route-registry.js";

/** What operators watch of one HTTP app: its request observer and its readiness. */
export interface HttpOperations {
  /** Writes the access lines and counts requests; undefined when both are turned off. */
  readonly observer: RequestObserver | undefined;
  /** The app's readiness (`beginShutdown()` at the start of a graceful shutdown). */
  readonly readiness: HttpReadiness;
  /** Pipeline steps the operations need (the `bearer` metrics audience's own credential check). */
  readonly steps: readonly PipelineContribution[];
}

/**
 * Adds the operators' routes to the app (`<health>/live`, `<health>/ready` and, when metrics are
 * enabled, the metrics route for its audience) and makes the request observer (access log and
 * request metrics, as the properties say). A `bearer` audience without a token of at least 32
 * characters, or an `admin` or `bearer` audience on a platform that does not know the identity
 * codes it answers with, is a CONFIGURATION_INVALID error (naming the key, never the value).
 */
export function httpOperations(
  platform: Platform,
  routes: RouteRegistry,
  table: RouteTable,
  logger: Logger,
  healthPath = "/health",
): HttpOperations {
  const readiness = new HttpReadiness();
  routes.add(livenessRoute(healthPath));
  routes.add(readinessRoute(platform, readiness, healthPath));
  const metrics = platformMetrics(platform);
  const steps: PipelineContribution[] = [];
  if (metrics !== undefined) {
    const options = metricsOptions(platform, metrics);
    routes.add(metricsRoute(options));
    if (options.audience === "bearer") steps.push(metricsCredentialStep(options));
  }
  const accessLog = platform.properties.get(HTTP_ACCESS_LOG_ENABLED) ? logger : undefined;
  const observer =
    accessLog === undefined && metrics === undefined
      ? undefined
      : new RequestObserver({ accessLog, metrics, routes, table });
  return { observer, readiness, steps };
}

function platformMetrics(platform: Platform): PlatformMetrics | undefined {
  if (!platform.properties.get(HTTP_METRICS_ENABLED)) return undefined;
  const c = platform.container;
  if (!c.isRegistered(PLATFORM_METRICS, true)) return undefined;
  const metrics = c.resolve(PLATFORM_METRICS) as PlatformMetrics;
  metrics.readFrom({
    policies: c.isRegistered(UrlAuthorizationManager, true) ? c.resolve(UrlAuthorizationManager) : undefined,
    decisions: c.isRegistered(DecisionPipeline, true) ? c.resolve(DecisionPipeline) : undefined,
  });
  return metrics;
}

function metricsOptions(platform: Platform, metrics: PlatformMetrics): MetricsRouteOptions {
  const audience = platform.properties.get(HTTP_METRICS_AUDIENCE);
  const bearerToken = platform.properties.get(HTTP_METRICS_BEARER_TOKEN);
  if (audience === "bearer" && bearerToken.length < MIN_METRICS_TOKEN_LENGTH) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `${HTTP_METRICS_AUDIENCE.key}=bearer needs ${HTTP_METRICS_BEARER_TOKEN.key} of at least ${MIN_METRICS_TOKEN_LENGTH} characters`,
    );
  }
  const catalog = platform.resolve(ErrorCatalog);
  if (
    audience !== "loopback" &&
    (catalog.entry("AUTHENTICATION_REQUIRED") === undefined || catalog.entry("ACCESS_DENIED") === undefined)
  ) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `${HTTP_METRICS_AUDIENCE.key}=${audience} needs the identity module (its 401 and 403 codes)`,
    );
  }
  return { metrics, path: platform.properties.get(HTTP_METRICS_PATH), audience, bearerToken };
}
