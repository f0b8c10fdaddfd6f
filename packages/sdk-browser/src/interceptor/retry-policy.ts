// When a request that met a step-up may be sent again: nothing is ever submitted twice by accident.

/** Methods that are safe (RFC 9110 §9.2.1): retried automatically after the step-up. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD"]);

/** The header that makes a non-idempotent request safe to send again (the server deduplicates by it). */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

/** The request as the retry rule sees it. */
export interface RetryCandidate {
  method: string;
  url: string;
  /** The value of its `Idempotency-Key` header, if any. */
  idempotencyKey?: string | null;
}

/**
 * The application's opt-in for retrying non-idempotent requests without an idempotency key: `true`
 * for all, or a per-request predicate (default: none).
 */
export type RetryUnsafe = boolean | ((request: { method: string; url: string }) => boolean);

/** Why a request is, or is not, sent again. */
export type RetryReason = "safe-method" | "idempotency-key" | "opt-in" | "unsafe";

/** The decision for one request. */
export interface RetryDecision {
  retry: boolean;
  reason: RetryReason;
}

/**
 * Decides whether a request is sent again after its step-up completed: safe methods (GET, HEAD)
 * always; any other method only with a non-empty `Idempotency-Key` header or the application's
 * `retryUnsafe` opt-in. Otherwise the caller receives the original answer and nothing is re-sent.
 */
export function retryDecision(request: RetryCandidate, retryUnsafe: RetryUnsafe = false): RetryDecision {
  const method = request.method.toUpperCase();
  if (SAFE_METHODS.has(method)) return { retry: true, reason: "safe-method" };
  if (typeof request.idempotencyKey === "string" && request.idempotencyKey.trim() !== "") {
    return { retry: true, reason: "idempotency-key" };
  }
  const optIn =
    typeof retryUnsafe === "function"
      ? retryUnsafe({ method, url: request.url }) === true
      : retryUnsafe === true;
  return optIn ? { retry: true, reason: "opt-in" } : { retry: false, reason: "unsafe" };
}
