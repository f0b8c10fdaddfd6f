// @platform/core/errors: the error class every module throws, its brand check, and the one table
// of stable codes and HTTP statuses every binding answers with.
export {
  isPlatformError,
  PlatformError,
  type PlatformErrorDetails,
  type PlatformErrorOptions,
} from "./kernel/platform-error.js";
export { ERROR_STATUS, type KnownErrorCode, statusForCode } from "./web/error-codes.js";
export { type ErrorBody, type ErrorResponse, errorResponse } from "./web/error-response.js";
