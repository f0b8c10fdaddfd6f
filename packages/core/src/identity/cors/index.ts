export { CorsFilter, DEFAULT_CORS_ALLOWED_HEADERS, type CorsOptions } from "./cors-filter.js";
export { canonicalConfiguredOrigin, canonicalRequestOrigin } from "./origin.js";
