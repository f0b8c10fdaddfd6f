// The public face of @keyward/adapters-http: named re-exports only.
export { type CreateHttpAppOptions, createHttpApp, type HttpApp } from "./create-http-app.js";
export type { HostPipelineSteps } from "./http-pipeline.js";
export {
  CORRELATION_ID_ATTRIBUTE,
  correlationIdOf,
  routeParams,
} from "./exchange-attributes.js";
export { type ExchangeBindingOptions, toExchange, writeExchange } from "./exchange-binding.js";
export { healthRoute } from "./health.js";
export {
  HTTP_MAX_BODY_SIZE,
  HTTP_PROPERTIES,
  HTTP_TRUST_PROXY,
  HTTP_TRUSTED_PROXIES,
  httpPlugin,
} from "./http-properties.js";
export { type BodySource, readLimitedText } from "./limited-body.js";
export { type NodeListener, toNodeListener } from "./node-listener.js";
export {
  type HttpMethod,
  type RouteDefinition,
  type RouteHandler,
  type RouteMatch,
  RouteRegistry,
} from "./route-registry.js";
export { type HttpServerHandle, type ServeHttpOptions, serveHttp } from "./serve-http.js";
export { STATIC_CONTENT_TYPES, type StaticAssetsOptions, staticAssetsRoute } from "./static-assets.js";
export { parseTrustedProxies, type TrustedProxies } from "./trusted-proxies.js";
