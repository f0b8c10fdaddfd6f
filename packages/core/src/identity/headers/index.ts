export {
  DEFAULT_CONTENT_SECURITY_POLICY,
  SecurityHeadersFilter,
  type HstsOptions,
  type SecurityHeadersOptions,
} from "./security-headers-filter.js";
