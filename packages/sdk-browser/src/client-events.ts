import type { ApiOperation } from "./api-client.js";
import type { BlockedAnswer, StepUpChallenge } from "./interceptor/step-up-challenge.js";
import type { PlatformMfaError } from "./platform-mfa-error.js";
import type { AuthenticationResult, MfaClientState } from "./types.js";

/** The events a Client dispatches (`client.addEventListener("mfa:required", ...)`). */
export const CLIENT_EVENTS = {
  /** A primary sign-in answered that MFA is required; detail `{ result, state }`. */
  required: "mfa:required",
  /** A factor verification completed the sign-in; detail `{ result, state }`. */
  completed: "mfa:completed",
  /** An MFA step failed (wrong code, expired session, passkey ceremony refused...); detail `{ operation, error, state }`. */
  failed: "mfa:failed",
  /** The interceptor met a step-up and starts its challenge; detail `{ challenge, state }`. */
  challenge: "mfa:challenge",
  /** The user closed the challenge, or its MFA flow ended; callers get the original answer; detail `{ challenge, error?, state }`. */
  challengeCancelled: "mfa:challenge-cancelled",
  /** A platform refusal no factor can clear (blocked, review, locked, pending analysis); detail `{ blocked, state }`. */
  blocked: "mfa:blocked",
  /** The step-up completed but a non-idempotent request was not sent again; detail `{ request, state }`. */
  retrySkipped: "mfa:retry-skipped",
  /** The page loaded again after the redirect fallback; detail `{ resumed: { method, url }, state }`. */
  resumed: "mfa:resumed",
} as const;

/** The name of a Client event. */
export type ClientEventType = (typeof CLIENT_EVENTS)[keyof typeof CLIENT_EVENTS];

/** The `detail` of a Client event (the members its type names). */
export interface ClientEventDetail {
  result?: AuthenticationResult;
  operation?: ApiOperation;
  error?: PlatformMfaError;
  /** `mfa:challenge`, `mfa:challenge-cancelled`: the step-up being completed. */
  challenge?: StepUpChallenge;
  /** `mfa:blocked`: the refusal. */
  blocked?: BlockedAnswer;
  /** `mfa:retry-skipped`: the request that was not sent again. */
  request?: { method: string; url: string };
  /** `mfa:resumed`: what the page asked for before the redirect fallback. */
  resumed?: { method: string; url: string };
  state: MfaClientState;
}
