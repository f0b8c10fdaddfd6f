// @keyward/core/errors: the error class every module throws and its brand check, the code types (the
// union of every code, the details of each), what a host needs to add codes of its own (a table typed
// ErrorCodeTable, merged into PlatformErrorCodes with ErrorCodesOf, brought by a plugin's `errorCodes`),
// a platform's ErrorCatalog, and the web table an HTTP binding contributes. docs/errors.md lists every
// code; the other modules' tables are contributed by their plugins and stay inside the core.
// Every module's error codes merge into PlatformErrorCodes (types), so PlatformErrorCode names them all.
import "./error-code-tables.js";

export { ErrorCatalog } from "./kernel/error-catalog.js";
export type {
  ErrorCodesOf,
  ErrorCodeTable,
  PlatformErrorCode,
  PlatformErrorCodes,
} from "./kernel/error-code-table.js";
export { isPlatformError, PlatformError } from "./kernel/platform-error.js";
export { WEB_ERROR_CODES } from "./web/web-error-codes.js";
