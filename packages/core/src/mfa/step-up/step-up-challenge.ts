import type { MfaStepEndpoints } from "../../web/wire/mfa-messages.js";
import { withChallengeAnswer } from "../../identity/asep/challenge-answer.js";
import type { StepUpChallenge } from "../../identity/http-security/authorization-manager.js";
import { PlatformError } from "../../kernel/platform-error.js";

/** The MFA fields a started step-up adds to the 401 `MFA_CHALLENGE_REQUIRED` body. */
export interface StartedStepUpFields {
  mfaUrl: string;
  mfaSessionId: string;
  currentState: string;
  /** The flow's step endpoints (absolute paths). */
  endpoints?: Readonly<MfaStepEndpoints>;
  /** Bearer callers only: the binding to send as `X-MFA-Binding` (clients without cookies). */
  mfaBinding?: string;
}

/**
 * The step-up a denial asks for (a `recentFactor` rule, a zero-trust CHALLENGE): 401
 * `MFA_CHALLENGE_REQUIRED` with `maxAgeSeconds` and, when the MFA chain hook started a step-up, its
 * fields. A browser page navigation is sent to `mfaUrl`; a bearer caller gets
 * `WWW-Authenticate: Bearer error="insufficient_user_authentication"`. A zero-trust CHALLENGE names
 * the security decision behind it (`decisionId`).
 */
export function stepUpChallenge(maxAgeMs: number, decisionId?: string): StepUpChallenge {
  return {
    maxAgeMs,
    error(started) {
      const fields = started as Partial<StartedStepUpFields> | undefined;
      const error = new PlatformError(
        "MFA_CHALLENGE_REQUIRED",
        "A recent second factor is required for this resource",
        {
          details: {
            maxAgeSeconds: Math.round(maxAgeMs / 1000),
            ...(decisionId === undefined ? {} : { decisionId }),
            ...fields,
          },
        },
      );
      return withChallengeAnswer(error, {
        browserRedirect: typeof fields?.mfaUrl === "string" ? fields.mfaUrl : undefined,
        bearerError: "insufficient_user_authentication",
      });
    },
  };
}
