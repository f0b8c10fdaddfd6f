// @platform/core/errors: the error class every module throws, its brand check, the code tables (one
// per module, each code with its status, meaning and remedy), the lookup every binding answers with,
// and what a host needs to add codes of its own (a plugin's `errorCodes`; a platform's ErrorCatalog).
export { ErrorCatalog } from "./kernel/error-catalog.js";
export type {
  ErrorCodeEntry,
  ErrorCodesOf,
  ErrorCodeTable,
  ErrorDetailsOf,
  PlatformErrorCode,
  PlatformErrorCodes,
  PlatformErrorDetails,
} from "./kernel/error-code-table.js";
export {
  isPlatformError,
  PlatformError,
  type PlatformErrorOptions,
} from "./kernel/platform-error.js";
export {
  type KernelErrorDetails,
  KERNEL_ERROR_CODES,
  type ValidationIssue,
} from "./kernel/kernel-error-codes.js";
export { type WebErrorDetails, WEB_ERROR_CODES } from "./web/web-error-codes.js";
export { type IdentityErrorDetails, IDENTITY_ERROR_CODES } from "./identity/identity-error-codes.js";
export { type MfaErrorDetails, MFA_ERROR_CODES } from "./mfa/mfa-error-codes.js";
export { type AuthzErrorDetails, AUTHZ_ERROR_CODES } from "./authz/authz-error-codes.js";
export { type PromptsErrorDetails, PROMPTS_ERROR_CODES } from "./prompts/prompts-error-codes.js";
export { type DecisionsErrorDetails, DECISIONS_ERROR_CODES } from "./decisions/decisions-error-codes.js";
export { type BuiltInErrorCode, ERROR_CODE_TABLES, ERROR_STATUS } from "./error-code-tables.js";
export { type ErrorBody, type ErrorResponse, errorResponse } from "./web/error-response.js";
