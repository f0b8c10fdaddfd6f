import { errorCodeEntry } from "../kernel/error-catalog.js";
// The kernel's and web's codes are always known where a status is looked up (higher modules' tables
// register when their module loads).
import "./web-error-codes.js";

/**
 * The HTTP status for a code, read from the registered code tables (each module's, and a host's);
 * an unknown code answers 500, so a new code never leaks as a success.
 */
export function statusForCode(code: string): number {
  return errorCodeEntry(code)?.status ?? 500;
}
