import type { Client } from "../client.js";
import type { FactorEndpoints } from "../factor-endpoints.js";
import type { AuthenticationResult } from "../types.js";

/** A request as the interceptor names it in events and challenges. */
export interface InterceptedRequest {
  /** The method, upper case. */
  readonly method: string;
  /** The URL, of the page's origin: absolute in challenges and events, a local path in `resumed`. */
  readonly url: string;
}

/**
 * A step-up the interceptor met (401 `MFA_CHALLENGE_REQUIRED`): what a challenge UI needs to complete
 * it with `challenge.client` (`verifyOtt`, `selectFactor`, `verifyFactor`, `verifyPasskey`,
 * `apiClient.requestOttCode`).
 * One challenge is shared by every request that meets it while it runs.
 */
export interface StepUpChallenge {
  /** The platform code that started it. */
  readonly code: string;
  readonly status: number;
  /** The server's challenge page (the redirect fallback goes there). */
  readonly mfaUrl: string | undefined;
  /** The MFA session of the first answer. */
  readonly mfaSessionId: string | undefined;
  /** `OTT_CHALLENGE` (a code was sent), `PASSKEY_CHALLENGE`, `FACTOR_CHALLENGE`, `FACTOR_SELECTION`... */
  readonly currentState: string | undefined;
  /**
   * The flow's plugin factors (`TOTP`, `RECOVERY_CODE`) by type: `kind` (`code` or `passkey`) and
   * answer URL, from the answer's `endpoints.factors` (checked: local paths only). A code factor is
   * answered with `client.selectFactor(type)` then `client.verifyFactor(type, code)`.
   */
  readonly factors: FactorEndpoints;
  /** How recent the factor must be, in seconds. */
  readonly maxAgeSeconds: number | undefined;
  /** The request that met it first. */
  readonly request: InterceptedRequest;
  /** The Client to complete it with (in step-up mode while the challenge runs). */
  readonly client: Client;
  /**
   * The distinct MFA sessions the server opened for the requests sharing this challenge. Concurrent
   * requests each open one (and each may send a code); the binding cookie of the last one decides,
   * so with more than one a UI should send a fresh code (the built-in overlay does).
   */
  readonly mfaSessionIds: readonly string[];
  /** Set by a UI: called when another request joins the challenge. */
  onJoin?: () => void;
}

/**
 * A custom challenge UI (`installInterceptor({ onChallenge })`): resolve once a factor verified (the
 * Client's answer with `success: true` completes the step-up), reject to give up (the callers then
 * receive their original answers).
 */
export type ChallengeHandler = (challenge: StepUpChallenge) => Promise<void>;

/** A platform refusal that no factor can clear (`mfa:blocked`). */
export interface BlockedAnswer extends InterceptedRequest {
  readonly status: number;
  readonly code: string;
  /** The answer's JSON body. */
  readonly body: AuthenticationResult;
}
