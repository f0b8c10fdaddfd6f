import type { AuthenticationResult } from "./types.js";

/**
 * A request of the SDK that did not succeed: the server's platform `code` (`BAD_CREDENTIALS`,
 * `MFA_FACTOR_VERIFICATION_FAILED`, ...) or an SDK code (`NETWORK_ERROR`, `PASSKEY_CEREMONY_FAILED`,
 * `HTTP_<status>` without a platform code), the HTTP `status` (0 when no answer came) and the parsed `body`.
 * An error of a request names it: `method` and `url` (the path, without query or fragment); a
 * failure of the wiring rather than a verdict on the user's input (no answer, 404 or 405, a 5xx, an
 * answer that is not the platform's JSON) also ends its message with them, so a 404 says which URL
 * to serve. A verdict's message (a wrong code, bad credentials) stays as the server wrote it: pages
 * show it to the user.
 */
export class PlatformMfaError extends Error {
  override readonly name = "PlatformMfaError";
  readonly code: string;
  readonly status: number;
  readonly body: AuthenticationResult;
  /** What went wrong underneath (a network TypeError, the browser's DOMException), when known. */
  readonly cause: unknown;
  /** The request's method, when the error is a request's. */
  readonly method: string | undefined;
  /** The request's path (no query or fragment: they may hold a token), when the error is a request's. */
  readonly url: string | undefined;

  constructor(
    code: string,
    message: string,
    status = 0,
    body: AuthenticationResult = {},
    cause?: unknown,
    request?: { method: string; url: string },
  ) {
    super(
      request && isWiringFailure(code, status) ? `${message} (${request.method} ${request.url})` : message,
    );
    this.code = code;
    this.status = status;
    this.body = body;
    this.cause = cause;
    this.method = request?.method;
    this.url = request?.url;
  }

  /**
   * This error as the failure of `method url` (the url cut to its path); `cause` wraps what was not
   * a PlatformMfaError. An error that already names a request is answered as is.
   */
  static ofRequest(error: unknown, method: string, url: string, fallbackMessage: string): PlatformMfaError {
    if (error instanceof PlatformMfaError && error.url !== undefined) return error;
    const path = pathOf(url);
    if (error instanceof PlatformMfaError)
      return new PlatformMfaError(error.code, error.message, error.status, error.body, error.cause, {
        method,
        url: path,
      });
    return new PlatformMfaError("NETWORK_ERROR", fallbackMessage, 0, {}, error, { method, url: path });
  }

  /** The server's `failureType`, when it sent one. */
  get failureType(): string | undefined {
    return typeof this.body.failureType === "string" ? this.body.failureType : undefined;
  }

  /** Failed attempts so far (wrong factor answers). */
  get attemptsMade(): number | undefined {
    return typeof this.body.attemptsMade === "number" ? this.body.attemptsMade : undefined;
  }

  /** Attempts allowed before the account locks. */
  get maxAttempts(): number | undefined {
    return typeof this.body.maxAttempts === "number" ? this.body.maxAttempts : undefined;
  }
}

/** True for a PlatformMfaError (also one from another copy of the SDK). */
export function isPlatformMfaError(value: unknown): value is PlatformMfaError {
  return value instanceof PlatformMfaError || (value instanceof Error && value.name === "PlatformMfaError");
}

/** The path of `url` (resolved against the page when there is one), without query or fragment. */
function pathOf(url: string): string {
  try {
    return new URL(url, globalThis.location?.href ?? "http://localhost").pathname;
  } catch {
    return url.split(/[?#]/)[0] ?? "";
  }
}

/** No answer, a route that is not there, a server failure, or an answer that is not the platform's JSON. */
function isWiringFailure(code: string, status: number): boolean {
  return (
    status === 0 ||
    status === 404 ||
    status === 405 ||
    status >= 500 ||
    code.startsWith("HTTP_") ||
    code === "UNEXPECTED_RESPONSE" ||
    code === "MALFORMED_RESPONSE"
  );
}
