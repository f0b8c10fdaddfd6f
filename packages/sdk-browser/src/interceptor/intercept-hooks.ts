import type { AuthenticationResult } from "../types.js";
import { type AnswerVerdict, classifyAnswer } from "./platform-codes.js";
import type { RetryCandidate, RetryDecision } from "./retry-policy.js";
import type { BlockedAnswer, InterceptedRequest } from "./step-up-challenge.js";
import type { MetChallenge, StepUpCompletion } from "./step-up-coordinator.js";

/** What the fetch and XHR interceptors ask of the coordinator. */
export interface InterceptHooks {
  epoch(): number;
  retry(request: RetryCandidate): RetryDecision;
  challenge(met: MetChallenge): Promise<StepUpCompletion>;
  blocked(answer: BlockedAnswer): void;
  retrySkipped(request: InterceptedRequest): void;
}

/** The header that tells the server a script asks (a JSON 401 instead of a redirect to the MFA page). */
export const REQUESTED_WITH = "X-Requested-With";

/** The URL resolved against the page when it is of the page's origin; undefined otherwise. */
export function sameOriginUrl(url: string | URL): string | undefined {
  try {
    const u = new URL(String(url), location.href);
    return u.origin === location.origin ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** An answer's verdict with its parsed body (`{}` when it passes). */
export interface ReadVerdict {
  verdict: AnswerVerdict;
  body: AuthenticationResult;
}

/** The verdict for a status and a parsed JSON body (anything but an object reads as no body). */
export function verdictOf(status: number, body: unknown): ReadVerdict {
  const verdict = classifyAnswer(status, body);
  return { verdict, body: verdict.action === "pass" ? {} : (body as AuthenticationResult) };
}
