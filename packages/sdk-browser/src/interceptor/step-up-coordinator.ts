import type { Client } from "../client.js";
import { CLIENT_EVENTS, type ClientEventDetail } from "../client-events.js";
import { csrfToken } from "../csrf.js";
import { factorEndpointsOf } from "../factor-endpoints.js";
import { redirectLocally } from "../local-redirect.js";
import { isPlatformMfaError, PlatformMfaError } from "../platform-mfa-error.js";
import type { AuthenticationResult } from "../types.js";
import { refreshCsrfToken } from "./csrf-refresh.js";
import { saveResume } from "./resume-record.js";
import { type RetryCandidate, type RetryDecision, type RetryUnsafe, retryDecision } from "./retry-policy.js";
import type {
  BlockedAnswer,
  ChallengeHandler,
  InterceptedRequest,
  StepUpChallenge,
} from "./step-up-challenge.js";

/** A request's answer that asks for a step-up, as the fetch and XHR interceptors report it. */
export interface MetChallenge extends InterceptedRequest {
  status: number;
  code: string;
  body: AuthenticationResult;
  /** The request's `Authorization` header (a bearer client's old token). */
  authorization: string | null;
  /** {@link StepUpCoordinator.epoch} when the request was sent. */
  epoch: number;
}

/** A completed step-up: what a retried request changes. */
export interface StepUpCompletion {
  /** The epoch it completed at. */
  readonly epoch: number;
  /** The completing answer (`success: true, stepUp: true`, and a new token pair for bearer clients). */
  readonly result: AuthenticationResult | undefined;
  /** A bearer client's old and new access token: the retried `Authorization` carries the new one. */
  readonly bearer?: { previous: string; next: string };
  /** A session's CSRF token, rotated by the step-up: the retried CSRF header carries the new one. */
  readonly csrf?: { headerName: string; previous: string; next: string };
}

/** What the coordinator needs of the interceptor's options. */
export interface CoordinatorOptions {
  fallback?: "overlay" | "redirect";
  onChallenge?: ChallengeHandler;
  blockedRedirectUrl?: string;
  retryUnsafe?: RetryUnsafe;
}

/**
 * Runs one challenge at a time and shares it: every request that meets a step-up while it runs
 * waits for the same completion and is then retried once (by the retry rules). A request sent before
 * the last completion is retried at once (the factor is already fresh). Also raises `mfa:blocked`.
 */
export class StepUpCoordinator {
  private current = 0;
  private running: { promise: Promise<StepUpCompletion>; challenge: StepUpChallenge } | undefined;
  private last: StepUpCompletion | undefined;
  private leaving = false;
  private disposed = false;

  constructor(
    private readonly client: Client,
    private readonly options: CoordinatorOptions,
    /** The built-in UI, used when no `onChallenge` is given. */
    private readonly overlay: ChallengeHandler,
  ) {}

  /** Grows with each completed step-up; requests remember it when they are sent. */
  epoch(): number {
    return this.current;
  }

  /** The retry rule for a request, with the application's `retryUnsafe`. */
  retry(request: RetryCandidate): RetryDecision {
    return retryDecision(request, this.options.retryUnsafe);
  }

  /** Runs or joins the challenge; rejects when it was not completed (cancelled, ended, redirected). */
  challenge(met: MetChallenge): Promise<StepUpCompletion> {
    if (this.disposed) return Promise.reject(new PlatformMfaError("STEP_UP_CANCELLED", "Uninstalled"));
    if (this.last && met.epoch < this.last.epoch) return Promise.resolve(this.last);
    const sessionId = typeof met.body.mfaSessionId === "string" ? met.body.mfaSessionId : undefined;
    if (this.running) {
      const { challenge } = this.running;
      const ids = challenge.mfaSessionIds as string[];
      if (sessionId && !ids.includes(sessionId)) ids.push(sessionId);
      challenge.onJoin?.();
      return this.running.promise;
    }
    const challenge: StepUpChallenge = {
      code: met.code,
      status: met.status,
      mfaUrl: stringOf(met.body.mfaUrl),
      mfaSessionId: sessionId,
      currentState: stringOf(met.body.currentState),
      factors: factorEndpointsOf(met.body.endpoints),
      maxAgeSeconds: typeof met.body.maxAgeSeconds === "number" ? met.body.maxAgeSeconds : undefined,
      request: { method: met.method, url: met.url },
      client: this.client,
      mfaSessionIds: sessionId ? [sessionId] : [],
    };
    const promise = this.run(challenge, met.authorization).finally(() => {
      if (this.running?.challenge === challenge) this.running = undefined;
    });
    this.running = { promise, challenge };
    return promise;
  }

  /** A refusal no factor clears: `mfa:blocked`, then the configured redirect (once), never a retry. */
  blocked(answer: BlockedAnswer): void {
    this.client.emit(CLIENT_EVENTS.blocked, { blocked: answer });
    const target = this.options.blockedRedirectUrl;
    if (target && !this.leaving && !this.disposed) this.leaving = redirectLocally(target);
  }

  /** A non-idempotent request was not sent again after the step-up. */
  retrySkipped(request: InterceptedRequest): void {
    this.client.emit(CLIENT_EVENTS.retrySkipped, { request });
  }

  /** Stops: a running challenge's callers get their original answers; new ones pass through. */
  dispose(): void {
    this.disposed = true;
  }

  private async run(challenge: StepUpChallenge, authorization: string | null): Promise<StepUpCompletion> {
    const { client } = this;
    client.emit(CLIENT_EVENTS.challenge, { challenge });
    if (this.options.fallback === "redirect") {
      await this.redirect(challenge);
      throw new PlatformMfaError("STEP_UP_REDIRECTED", "The step-up continues on the MFA page");
    }
    const csrfBefore = csrfToken();
    let result: AuthenticationResult | undefined;
    const completed = (event: Event): void => {
      const answer = (event as CustomEvent<ClientEventDetail>).detail.result;
      if (answer?.success === true) result = answer;
    };
    client.apiClient.beginStepUp(authorization ?? undefined, { factors: challenge.factors });
    client.addEventListener(CLIENT_EVENTS.completed, completed);
    try {
      await (this.options.onChallenge ?? this.overlay)(challenge);
      if (this.disposed) throw new PlatformMfaError("STEP_UP_CANCELLED", "Uninstalled");
    } catch (error) {
      client.emit(CLIENT_EVENTS.challengeCancelled, {
        challenge,
        error: isPlatformMfaError(error) ? error : undefined,
      });
      throw error;
    } finally {
      client.removeEventListener(CLIENT_EVENTS.completed, completed);
      client.apiClient.endStepUp();
    }
    const completion: { -readonly [K in keyof StepUpCompletion]: StepUpCompletion[K] } = {
      epoch: this.current + 1,
      result,
    };
    const previous = bearerOf(authorization);
    if (previous) {
      const next = stringOf(result?.accessToken) ?? client.accessToken();
      if (next && next !== previous) completion.bearer = { previous, next };
    } else if (csrfBefore) {
      const next = await refreshCsrfToken(client, result);
      if (next && next !== csrfBefore.token) {
        completion.csrf = { headerName: csrfBefore.headerName, previous: csrfBefore.token, next };
      }
    }
    this.current = completion.epoch;
    this.last = completion;
    return completion;
  }

  /** The configured fallback: remember method and URL (nothing else), then go to the challenge page. */
  private async redirect(challenge: StepUpChallenge): Promise<void> {
    if (this.leaving) return;
    const config = await this.client.apiClient.ensureConfig().catch(() => undefined);
    saveResume(challenge.request);
    this.leaving =
      redirectLocally(localPathOf(challenge.mfaUrl)) ||
      redirectLocally(config?.mfa.selectFactor ?? "/mfa/select-factor");
  }
}

/**
 * The value a retried request sends for one of its headers: the new bearer token where it held the
 * old one, the new CSRF token where it held the rotated one; anything else unchanged.
 */
export function retriedHeaderValue(name: string, value: string, completion: StepUpCompletion): string {
  const lower = name.toLowerCase();
  if (completion.bearer && lower === "authorization" && bearerOf(value) === completion.bearer.previous) {
    return `Bearer ${completion.bearer.next}`;
  }
  const csrf = completion.csrf;
  if (csrf && lower === csrf.headerName.toLowerCase() && value === csrf.previous) return csrf.next;
  return value;
}

function bearerOf(authorization: string | null | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return m?.[1];
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A same-origin absolute URL reduced to its path (the server may send either). */
function localPathOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url, location.href);
    return u.origin === location.origin ? u.pathname + u.search + u.hash : undefined;
  } catch {
    return undefined;
  }
}
