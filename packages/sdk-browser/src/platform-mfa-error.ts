import type { AuthenticationResult } from "./types.js";

/**
 * A request of the SDK that did not succeed: the server's platform `code` (`BAD_CREDENTIALS`,
 * `MFA_FACTOR_VERIFICATION_FAILED`, ...) or an SDK code (`NETWORK_ERROR`, `PASSKEY_CEREMONY_FAILED`,
 * `HTTP_<status>` without a platform code), the HTTP `status` (0 when no answer came) and the parsed `body`.
 */
export class PlatformMfaError extends Error {
  override readonly name = "PlatformMfaError";
  readonly code: string;
  readonly status: number;
  readonly body: AuthenticationResult;
  /** What went wrong underneath (a network TypeError, the browser's DOMException), when known. */
  readonly cause: unknown;

  constructor(code: string, message: string, status = 0, body: AuthenticationResult = {}, cause?: unknown) {
    super(message);
    this.code = code;
    this.status = status;
    this.body = body;
    this.cause = cause;
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
