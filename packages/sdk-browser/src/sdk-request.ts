/**
 * The mark on the SDK's own requests (its `fetch` init carries it): the step-up interceptor lets
 * them through untouched, so its MFA calls never recurse into another challenge. `Symbol.for`, so
 * the IIFE and the ES module build recognise each other's requests.
 */
export const SDK_REQUEST: symbol = Symbol.for("platform.mfa.sdk-request");

/** `init` with the SDK's mark (a copy; the caller's object is left alone). */
export function markSdkRequest(init: RequestInit = {}): RequestInit {
  return { ...init, [SDK_REQUEST]: true } as RequestInit;
}

/** True when a `fetch` init carries the SDK's mark. */
export function isSdkRequest(init: unknown): boolean {
  return typeof init === "object" && init !== null && (init as Record<symbol, unknown>)[SDK_REQUEST] === true;
}
