import type { Platform } from "@keyward/core";
import { PlatformError, ErrorCatalog } from "@keyward/core/errors";
import { IdGenerator, Logger } from "@keyward/core/ports";
import {
  errorTranslation,
  type HttpExchange,
  REST_DOCS_PATH,
  type RequestPipeline,
  RouteTable,
} from "@keyward/core/web";
import { H3, H3Core, type H3Event } from "h3";
import { errorAnswer, fromH3Error } from "./error-answer.js";
import { incomingCorrelationId } from "./correlation-id.js";
import { CORRELATION_ID_ATTRIBUTE } from "./exchange-attributes.js";
import { type ExchangeBindingOptions, toExchange, writeExchange } from "./exchange-binding.js";
import { healthRoute } from "./health.js";
import { HTTP_MAX_BODY_SIZE, HTTP_TRUSTED_PROXIES } from "./http-properties.js";
import { assembleHttpPipeline, type HostPipelineSteps } from "./http-pipeline.js";
import { setDirectListener, toNodeListener } from "./node-listener.js";
import { directNodeListener } from "./node-binding.js";
import { httpOperations } from "./operations.js";
import type { HttpReadiness } from "./readiness.js";
import type { RequestObserver } from "./request-observer.js";
import { HTTP_OPENAPI_ENABLED } from "./openapi/openapi-properties.js";
import { openApiRoutes } from "./openapi/openapi-routes.js";
import { RouteRegistry } from "./route-registry.js";
import { sdkAssetsRoute } from "./sdk-assets.js";
import { type StaticAssetsOptions, staticAssetsRoute } from "./static-assets.js";
import { parseTrustedProxies } from "./trusted-proxies.js";

/** Options of createHttpApp. */
export interface CreateHttpAppOptions extends HostPipelineSteps {
  /** A platform with `httpPlugin` installed; its IdGenerator and Logger ports are used per request. */
  platform: Platform;
  /**
   * The application routes (a new, empty registry by default); more may be added later. They join
   * the platform's RouteTable, beside the chains' routes.
   */
  routes?: RouteRegistry;
  /** Directories served as static assets (each also registered as a `GET <prefix>/**` route). */
  staticAssets?: readonly StaticAssetsOptions[];
  /**
   * Serve the browser SDK and the page scripts at `/js/**` (default true), where the core's pages
   * load them from; false when the host serves them itself.
   */
  sdkAssets?: boolean;
  /** Path of the health route (default `/health`). */
  healthPath?: string;
}

/** The h3 app, the route registry it dispatches through, and the platform's one route table. */
export interface HttpApp {
  app: H3;
  routes: RouteRegistry;
  /** Every route: the app's (a registry's view) and, once the platform started, every chain's. */
  table: RouteTable;
  /** The steps every request runs (see docs/request-pipeline.md). */
  pipeline: RequestPipeline;
  /** Call `readiness.beginShutdown()` when a graceful shutdown starts: `/health/ready` answers 503 from then on. */
  readiness: HttpReadiness;
}

/**
 * Binds the platform to h3, serving the browser SDK and page scripts the core's pages load (`/js/**`).
 * Every request becomes an HttpExchange with a correlation id (the caller's when well-formed, see
 * incomingCorrelationId; else from the IdGenerator port; echoed as X-Request-Id and X-Correlation-Id,
 * errors included) and runs the platform's request pipeline (`assembleHttpPipeline`: the plugins'
 * steps, so identity's chains protect the routes with nothing wired by hand, the host's steps and
 * interceptors, then the matched route); the exchange is written back as a web Response. 404 and 405
 * (with Allow) answer JSON, and every error, ours or h3's (a malformed URL, say), goes through the
 * core's `errorResponse` (after the ErrorTranslator family: a database outage answers 503
 * DEPENDENCY_UNAVAILABLE): 4xx with its stable code, anything unexpected a generic 500 logged once
 * through the Logger port. Dispatch uses the platform's RouteTable (through the RouteRegistry), not
 * h3's router: h3 freezes its routes at `serve()` and cannot list them. One app per platform: the
 * table holds one set of application routes.
 */
export function createHttpApp(options: CreateHttpAppOptions): HttpApp {
  const { platform } = options;
  const routes = options.routes ?? new RouteRegistry();
  const binding = bindingOptions(platform);
  const table = platform.resolve(RouteTable);
  routes.bindTo(table);
  const ids = platform.resolve(IdGenerator);
  const logger = platform.resolve(Logger);
  routes.add(healthRoute(platform, options.healthPath));
  // Liveness, readiness, metrics; the access log and request metrics (docs/operations.md).
  const operations = httpOperations(platform, routes, table, logger, options.healthPath);
  const { observer, readiness } = operations;
  const steps = [...operations.steps, ...(options.steps ?? [])];
  const pipeline = assembleHttpPipeline(platform, routes, { ...options, steps }, logger);
  addServedRoutes(platform, routes, options);

  const correlationIds = new WeakMap<H3Event, string>();
  const answerError = errorAnswerer(platform, observer, logger);

  async function handle(event: H3Event): Promise<Response> {
    const startedAt = performance.now();
    let correlationId: string | undefined;
    let exchange: HttpExchange | undefined;
    let response: Response;
    try {
      exchange = toExchange(event, binding);
      // The caller's id when well-formed (X-Request-Id, X-Correlation-Id, traceparent), else a new one,
      // from the exchange's headers; incomingCorrelationId is asked only when one of them is there.
      correlationId =
        (exchange.header("x-request-id") ??
          exchange.header("x-correlation-id") ??
          exchange.header("traceparent")) === undefined
          ? ids.id()
          : (incomingCorrelationId(exchangeHeaders(exchange)) ?? ids.id());
      correlationIds.set(event, correlationId);
      exchange.attributes.set(CORRELATION_ID_ATTRIBUTE, correlationId);
      await pipeline.run(exchange);
      response = writeExchange(exchange, {
        "x-correlation-id": correlationId,
        "x-request-id": correlationId,
      });
    } catch (error) {
      if (correlationId === undefined) {
        // The binding refused the request (no exchange yet): its id from the raw headers.
        correlationId = incomingCorrelationId(event.req.headers) ?? ids.id();
        correlationIds.set(event, correlationId);
      }
      const { method } = event.req;
      response = answerError(error, method, event.url.pathname, correlationId, exchange?.response.headers);
    }
    if (exchange !== undefined) observer?.answered(exchange, response.status, startedAt, correlationId);
    else observer?.unparsed(event.req.method, response.status, startedAt, correlationId);
    return response;
  }

  const app = new PlatformH3({
    // We log unexpected errors ourselves, through the Logger port, exactly once.
    silent: true,
    onError: (error, event) => {
      const seen = correlationIds.get(event);
      const id = seen ?? ids.id();
      const response = answerError(
        fromH3Error(error),
        event.req.method,
        event.url.pathname,
        id,
        error.headers,
      );
      // A request `handle` never saw (h3 refused it first) still gets its access line.
      if (seen === undefined) observer?.unparsed(event.req.method, response.status, undefined, id);
      return response;
    },
  });
  app.use(handle);
  // Served from Node, a plain GET skips h3 and srvx; anything else takes the h3 path, srvx's
  // handler (what toNodeListener(app) still is here: the direct listener is set just below).
  const direct = directNodeListener({ binding, ids, pipeline, observer, answerError }, toNodeListener(app));
  setDirectListener(app, direct);
  return { app, routes, table, pipeline, readiness };
}

/**
 * The h3 app createHttpApp returns. h3 looks a request up in its own router before it runs the
 * middleware, on every request; the platform dispatches through its RouteTable and `handle` answers
 * every request, so that lookup finds nothing unless a host added an h3 route to the app (which
 * `handle` never hands on to). While the router holds no route, h3's own no-op lookup (H3Core's,
 * not a function of ours) stands in for it: the same answer (no route) without splitting the path;
 * the first route added puts the router's lookup back. (h3's internal `~findRoute` and `~addRoute`,
 * kept honest by a test.)
 */
class PlatformH3 extends H3 {
  constructor(config: ConstructorParameters<typeof H3>[0]) {
    super(config);
    (this as Partial<Pick<H3, "~findRoute">>)["~findRoute"] = H3Core.prototype["~findRoute"];
  }

  override "~addRoute"(route: Parameters<H3["~addRoute"]>[0]): void {
    delete (this as Partial<Pick<H3, "~findRoute">>)["~findRoute"];
    super["~addRoute"](route);
  }
}

/** Answers an error (after the ErrorTranslator family), counting a dependency's outage. */
function errorAnswerer(platform: Platform, observer: RequestObserver | undefined, logger: Logger) {
  const errors = platform.resolve(ErrorCatalog);
  // A dependency's outage (the ErrorTranslator family) answers its 503, not the generic 500.
  const translate = errorTranslation(platform.container);
  return (
    error: unknown,
    method: string,
    path: string,
    id: string,
    headers?: Iterable<[string, string]>,
  ): Response => {
    const translated = translate(error);
    observer?.failed(translated);
    return errorAnswer(translated, {
      correlationId: id,
      method,
      path,
      logger,
      errors,
      headers,
    });
  };
}

/** The SDK's and the host's static assets, and the OpenAPI document when enabled. */
function addServedRoutes(platform: Platform, routes: RouteRegistry, options: CreateHttpAppOptions): void {
  if (options.sdkAssets ?? true) routes.add(sdkAssetsRoute());
  for (const assets of options.staticAssets ?? []) routes.add(staticAssetsRoute(assets));
  if (platform.properties.get(HTTP_OPENAPI_ENABLED)) {
    for (const route of openApiRoutes(platform, platform.properties.get(REST_DOCS_PATH))) routes.add(route);
  }
}

/** An exchange's request headers as incomingCorrelationId reads them (by lower-case name). */
function exchangeHeaders(exchange: HttpExchange): { get(name: string): string | undefined } {
  return { get: (name) => exchange.header(name) };
}

function bindingOptions(platform: Platform): ExchangeBindingOptions {
  let maxBodySize: number;
  let trustedProxies: string;
  try {
    maxBodySize = platform.properties.get(HTTP_MAX_BODY_SIZE);
    trustedProxies = platform.properties.get(HTTP_TRUSTED_PROXIES);
  } catch (cause) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      "createHttpApp needs httpPlugin installed in the platform",
      {
        cause,
      },
    );
  }
  const trust = parseTrustedProxies(trustedProxies);
  // Unreachable: the property's schema already refused an invalid value at start-up.
  if (typeof trust === "string") throw new PlatformError("CONFIGURATION_INVALID", trust);
  return { maxBodySize, trustedProxies: trust, errors: platform.resolve(ErrorCatalog) };
}
