// @keyward/core/web: the framework-free HTTP model an HTTP binding (adapters-http, or a host's own
// binding to another framework) builds on: the exchange and its interceptor, the request pipeline (its
// steps, and the family a plugin contributes steps through), the route table, the one path-pattern
// language (`compilePathPattern`, `routePattern`), cookies, IP ranges, the page scripts and the error
// answer. The canonical form of a path, the exchange's internals, the pipeline's table of places and the
// compiled forms of patterns and routes stay inside the core.
export { compilePathPattern, routePattern } from "./path-pattern.js";
export { correlationIdOf } from "./correlation-id.js";
export { errorResponse } from "./error-response.js";
export { errorTranslation } from "./error-translation.js";
export { HttpExchange, type ResponseBody, serializeCookie } from "./http-exchange.js";
export type { HttpInterceptor } from "./http-interceptor.js";
export { type IpRange, ipRangeContains, parseIpRange } from "./ip-range.js";
export { PAGE_SCRIPT_PATHS, PAGE_SCRIPTS_PREFIX } from "./page-scripts.js";
export { REST_DOCS_PATH } from "./rest-docs.properties.js";
export type { RouteContract } from "./route-contract.js";
export { type Route, type RouteAccess, RouteTable } from "./route-table.js";
export {
  contributedSteps,
  holdResult,
  type PipelineContribution,
  type PipelineStep,
  RequestPipeline,
  RequestPipelineContributor,
} from "./request-pipeline.js";
