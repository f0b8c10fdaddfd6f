export { ERROR_STATUS, statusForCode, type KnownErrorCode } from "./error-codes.js";
export { MAX_JSON_DEPTH } from "./http-exchange.js";
export { errorResponse, type ErrorBody, type ErrorResponse } from "./error-response.js";
export {
  HttpExchange,
  HttpResponseState,
  parseCookieHeader,
  serializeCookie,
  type BodyFields,
  type HttpRequestInit,
  type ResponseBody,
  type ResponseCookie,
} from "./http-exchange.js";
export type { HttpInterceptor } from "./http-interceptor.js";
export { compileAntPattern, MAX_ANT_PATTERN_LENGTH, type AntPathPattern } from "./ant-path-pattern.js";
export { canonicalPath } from "./canonical-path.js";
export {
  andMatcher,
  antMatcher,
  anyRequest,
  notMatcher,
  orMatcher,
  type HttpMethod,
  type MatchableRequest,
  type RequestMatcher,
} from "./request-matcher.js";
export { ServerAddress, ServerAddressToken } from "./server-address.js";
