import type { PlatformError } from "../../kernel/platform-error.js";

/**
 * How an error that asks the caller to prove more (a step-up challenge) is answered besides its JSON
 * body. The module that raises the challenge attaches it (the MFA module's `stepUpChallenge`); the
 * exception translation filter reads it, so identity names no challenge of its own.
 */
export interface ChallengeAnswer {
  /** A browser page navigation (a GET, not asking for JSON, not a bearer caller) is redirected here. */
  readonly browserRedirect?: string | undefined;
  /** The `error` of `WWW-Authenticate: Bearer error="…"` on the 401 a bearer caller gets. */
  readonly bearerError?: string | undefined;
}

const ANSWER = Symbol("platform.ChallengeAnswer");

/** Attaches how `error` is answered (not serialised: the JSON body stays the error's own). */
export function withChallengeAnswer<E extends PlatformError>(error: E, answer: ChallengeAnswer): E {
  Object.defineProperty(error, ANSWER, { value: answer, enumerable: false });
  return error;
}

/** The answer attached to an error by `withChallengeAnswer`, if any. */
export function challengeAnswerOf(error: PlatformError): ChallengeAnswer | undefined {
  return (error as unknown as { [ANSWER]?: ChallengeAnswer })[ANSWER];
}
