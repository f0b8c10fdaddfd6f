const BRAND = Symbol.for("platform.PlatformError");

/** Extra, client-safe fields a PlatformError may carry into its JSON body. */
export type PlatformErrorDetails = Record<string, unknown>;

/** Options of a PlatformError beyond its code and message. */
export interface PlatformErrorOptions {
  /** The underlying error; kept for logs, never shown to clients. */
  cause?: unknown;
  /** Client-safe fields merged into the error body (e.g. `{ key, value }`). */
  details?: PlatformErrorDetails;
  /** Overrides the status of the code table for this one error (rarely needed). */
  status?: number;
}

/**
 * The one error type of the platform: a stable UPPER_SNAKE `code`, a client-safe message,
 * optional details and the original `cause`. Checked by brand (`isPlatformError`), not `instanceof`,
 * so it survives duplicated module copies.
 */
export class PlatformError extends Error {
  readonly code: string;
  readonly details: PlatformErrorDetails | undefined;
  readonly status: number | undefined;

  constructor(code: string, message: string, options: PlatformErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "PlatformError";
    this.code = code;
    this.details = options.details;
    this.status = options.status;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/** True when `value` is a PlatformError from any copy of this module. */
export function isPlatformError(value: unknown): value is PlatformError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}
