// @platform/core/web: the framework-free HTTP model an HTTP binding (adapters-http, or a host's own
// binding to another framework) builds on: the exchange, its interceptor, the one canonical form of a
// path, the route table, the one path-pattern language, cookies, IP ranges and the error answer.
export { canonicalPath } from "./canonical-path.js";
export {
  compilePathPattern,
  type PathPattern,
  type PathPatternUse,
  type PathVariables,
  type PatternSegment,
  routePattern,
  splitPath,
} from "./path-pattern.js";
export { type ErrorBody, type ErrorResponse, errorResponse } from "./error-response.js";
export { attachErrorCatalog, errorCatalogOf } from "./exchange-error-catalog.js";
export { errorTranslation } from "./error-translation.js";
export {
  type BodyFields,
  HttpExchange,
  type HttpRequestInit,
  HttpResponseState,
  MAX_JSON_DEPTH,
  parseCookieHeader,
  type ResponseBody,
  type ResponseCookie,
  serializeCookie,
} from "./http-exchange.js";
export type { HttpInterceptor } from "./http-interceptor.js";
export { type IpRange, ipRangeContains, parseIpRange } from "./ip-range.js";
export { PAGE_SCRIPT_PATHS, PAGE_SCRIPTS_PREFIX } from "./page-scripts.js";
export { ServerAddress } from "../kernel/server-address.js";
export {
  type Route,
  type RouteAccess,
  type RouteMethod,
  type RouteStage,
  RouteTable,
  type RouteTableMatch,
  type TableRouteHandler,
} from "./route-table.js";
export {
  contributedSteps,
  holdResult,
  type PipelineAssembly,
  type PipelineContribution,
  type PipelineNext,
  type PipelinePlace,
  type PipelineStep,
  REQUEST_PIPELINE_PLACES,
  RequestPipeline,
  RequestPipelineContributor,
  type StepPlacement,
} from "./request-pipeline.js";
