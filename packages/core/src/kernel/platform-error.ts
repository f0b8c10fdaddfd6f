import type { ErrorDetailsOf, PlatformErrorCode, PlatformErrorDetails } from "./error-code-table.js";

export type { PlatformErrorDetails } from "./error-code-table.js";

const BRAND = Symbol.for("platform.PlatformError");

/** Options of a PlatformError beyond its code and message. */
export interface PlatformErrorOptions<C extends PlatformErrorCode = PlatformErrorCode> {
  /** The underlying error; kept for logs, never shown to clients. */
  cause?: unknown;
  /** Client-safe fields merged into the error body, typed per code (e.g. `{ key, value }`). */
  details?: ErrorDetailsOf<C>;
  /** Overrides the status of the code table for this one error (rarely needed). */
  status?: number;
}

/**
 * The one error type of the platform: a stable UPPER_SNAKE `code` from one of the code tables
 * (`PlatformErrorCode`, so a misspelt code does not compile), a client-safe message, details typed
 * per code and the original `cause`. Checked by brand (`isPlatformError`), not `instanceof`, so it
 * survives duplicated module copies.
 */
export class PlatformError<C extends PlatformErrorCode = PlatformErrorCode> extends Error {
  readonly code: C;
  /** Typed per code where the error is built; read them typed after `isPlatformError(error, code)`. */
  readonly details: PlatformErrorDetails | undefined;
  readonly status: number | undefined;

  constructor(code: C, message: string, options: PlatformErrorOptions<C> = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "PlatformError";
    this.code = code;
    this.details = options.details;
    this.status = options.status;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/** A PlatformError whose code is known, with its details typed for that code. */
export type TypedPlatformError<C extends PlatformErrorCode> = PlatformError<C> & {
  readonly details: ErrorDetailsOf<C> | undefined;
};

/**
 * True when `value` is a PlatformError from any copy of this module; given a `code`, only when it
 * carries that code (and its `details` are then typed for it).
 */
export function isPlatformError(value: unknown): value is PlatformError;
export function isPlatformError<C extends PlatformErrorCode>(
  value: unknown,
  code: C,
): value is TypedPlatformError<C>;
export function isPlatformError(value: unknown, code?: PlatformErrorCode): value is PlatformError {
  if (typeof value !== "object" || value === null || (value as Record<symbol, unknown>)[BRAND] !== true)
    return false;
  // Only a string narrows, so `errors.filter(isPlatformError)` (index as 2nd argument) still checks the brand alone.
  return typeof code !== "string" || (value as { code?: unknown }).code === code;
}
