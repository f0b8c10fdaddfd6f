import type { EventBus } from "../../kernel/event-bus.js";

/**
 * Published (not awaited) when a sign-in completes: once its session is stored (a token chain issues
 * its tokens next), past the MFA gate and the `sign-in` checkpoint; password (form, REST), OTT,
 * passkey, or a completed MFA flow. A sign-in refused after its credentials were verified publishes none.
 */
export const SIGN_IN_COMPLETED_EVENT = "identity.SignInCompletedEvent";

/** The payload of SIGN_IN_COMPLETED_EVENT: the signed-in user, the method and the client address. */
export interface SignInCompletedPayload {
  readonly userId: string;
  readonly username: string;
  /** `form`, `rest`, `ott`, `passkey`, or `mfa` (a flow that verified a second factor). */
  readonly method: string;
  readonly remoteAddress?: string;
  /** The request's correlation id (see correlationIdOf), when a binding gave it one. */
  readonly correlationId?: string;
}

/** Published (not awaited) when a chain's authorization rules deny a request (static or dynamic). */
export const ACCESS_DENIED_EVENT = "identity.AccessDeniedEvent";

/** The payload of ACCESS_DENIED_EVENT; `username` is absent for an anonymous caller. */
export interface AccessDeniedPayload {
  readonly userId?: string;
  readonly username?: string;
  readonly method: string;
  readonly path: string;
  readonly remoteAddress?: string;
  /** The error code the caller is answered with (`ACCESS_DENIED`, `ZERO_TRUST_BLOCKED`, ...). */
  readonly code: string;
  /** The request's correlation id (see correlationIdOf), when a binding gave it one. */
  readonly correlationId?: string;
}

/**
 * Publishes without waiting for the listeners and without letting the bus fail the caller: the
 * request that signals is never slowed or changed by who listens.
 */
export function publishWithoutWaiting(events: EventBus | undefined, type: string, payload: object): void {
  if (events === undefined) return;
  try {
    void events.publish(type, payload).catch(() => {});
  } catch {
    // A broken bus never changes an answer.
  }
}
