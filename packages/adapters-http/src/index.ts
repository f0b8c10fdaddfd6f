// The public face of @keyward/adapters-http: named re-exports only.
export { ACCESS_LOG_MESSAGE, HTTP_ACCESS_LOG_ENABLED } from "./access-log.js";
export { type CreateHttpAppOptions, createHttpApp, type HttpApp } from "./create-http-app.js";
export { incomingCorrelationId } from "./correlation-id.js";
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
export {
  buildOpenApiDocument,
  type OpenApiDocument,
  type OpenApiOptions,
} from "./openapi/openapi-document.js";
export { HTTP_OPENAPI_ENABLED } from "./openapi/openapi-properties.js";
export { OPENAPI_PATH } from "./openapi/openapi-routes.js";
export { renderReferencePage, routeAnchor } from "./openapi/reference-page.js";
export { type BodySource, readLimitedText } from "./limited-body.js";
export { mailPlugin } from "./mail/mail-plugin.js";
export type { SmtpSettings } from "./mail/mail-properties.js";
export { defaultMailTemplates, escapeHtml, type MailContent, MailTemplates } from "./mail/mail-templates.js";
export {
  SmtpOneTimeTokenDelivery,
  type SmtpOneTimeTokenDeliveryOptions,
} from "./mail/smtp-one-time-token-delivery.js";
export { type NodeListener, toNodeListener } from "./node-listener.js";
export {
  HTTP_METRICS_AUDIENCE,
  HTTP_METRICS_BEARER_TOKEN,
  HTTP_METRICS_ENABLED,
  HTTP_METRICS_PATH,
  type MetricsAudience,
} from "./metrics/metrics-properties.js";
export type { HttpReadiness } from "./readiness.js";
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
