import {
  type Authentication,
  type AuthenticationFactor,
  currentAuthentication,
  setCurrentAuthentication,
} from "../../identity/authentication/authentication.js";
import { isBearerAuthentication } from "../../identity/tokens/bearer-authentication.js";
import type { SecurityContextRepository } from "../../identity/context/security-context-repository.js";
import type { TokenIssuer } from "../../identity/handlers/oauth2-handlers.js";
import type { SubjectStatusGate } from "../../identity/authentication/subject-status-check.js";
import { csrfToken } from "../../identity/csrf/csrf-token.js";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import { MFA_ERROR_CODES } from "../mfa-error-codes.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { FactorContext } from "../state/factor-context.js";
import { answersMfaJson, provedFactors } from "./mfa-answers.js";
import type { MfaRuntime } from "./mfa-runtime.js";

/** What finishing a step-up needs: the session repository (session users) and the token issuer (bearer). */
export interface StepUpCompletion {
  sessionRepository: SecurityContextRepository;
  tokens: TokenIssuer;
  /** The `step-up` checkpoint, asked once the factor is verified and before anything is upgraded. */
  statusCheck?: SubjectStatusGate;
  /**
   * Takes (and forgets) the local URL this user's browser asked for when the step-up started
   * (session chains); a session step-up's answer sends the browser there, else to `/`.
   */
  takeStepUpReturn?: (exchange: HttpExchange, userId: string) => Promise<string | undefined>;
}

/**
 * Finishes a step-up: the same authentication gains the new factor (its sign-in time and method stay;
 * it is never a fresh sign-in). A session user's session is upgraded (saved again, id rotated); a bearer
 * client gets a new access token whose `amr`/`amr_times` carry the factor and whose `auth_time` is the
 * original sign-in. The MFA session is finished first, then the `step-up` checkpoint may refuse
 * (e.g. 403 ZERO_TRUST_BLOCKED): the session keeps its old authentication and no token is issued.
 * Only a sign-in that is still alive is upgraded: the caller's own session of that sign-in (never a
 * session made for whoever holds the MFA cookie and the code), or an access token whose sign-in was
 * not revoked (logout, revoke, reuse), presented by the request itself (its own access token of that
 * sign-in, see {@link assertStepUpCaller}); otherwise 401 MFA_SIGN_IN_ENDED and nothing is issued.
 */
export async function completeStepUp(
  exchange: HttpExchange,
  ctx: FactorContext,
  runtime: MfaRuntime,
  completion: StepUpCompletion,
): Promise<void> {
  const proved = provedFactors(ctx, runtime.factors.members());
  await runtime.finish(exchange, ctx);
  const primary = ctx.primary;
  await completion.statusCheck?.({ checkpoint: "step-up", authentication: primary, exchange });
  const ended = (cause?: unknown) => signInEnded(runtime, ctx, cause);
  if (primary.method === "bearer") {
    if (!isCallerOf(exchange, primary)) throw await ended();
    // The token's id and family stay: the new pair continues that sign-in, and `issue` refuses
    // (INVALID_TOKEN) once the token or its family was revoked, before and after signing.
    const upgraded: Authentication = { ...primary, factors: mergeFactors(primary.factors, proved) };
    let pair: Awaited<ReturnType<StepUpCompletion["tokens"]["issue"]>>;
    try {
      pair = await completion.tokens.issue(upgraded);
    } catch (error) {
      if (isPlatformError(error) && error.code === "INVALID_TOKEN") throw await ended(error);
      throw error;
    }
    exchange.response.headers.set("cache-control", "no-store");
    exchange.json(200, { success: true, stepUp: true, ...pair });
    return;
  }
  // The caller's session must still hold this very sign-in (logout deletes it; the id may have rotated).
  const current = await completion.sessionRepository.load(exchange);
  if (!current || !sameSignIn(current, primary)) throw await ended();
  const upgraded: Authentication = { ...current, factors: mergeFactors(current.factors, proved) };
  const target = (await completion.takeStepUpReturn?.(exchange, current.userId)) ?? "/";
  await completion.sessionRepository.save(exchange, upgraded);
  setCurrentAuthentication(exchange, upgraded);
  if (answersMfaJson(exchange)) {
    // The session's CSRF token may have rotated with the upgrade: a page retrying a POST needs it.
    const csrf = (await csrfToken(exchange)?.value()) ?? null;
    exchange.json(200, { success: true, stepUp: true, redirectUrl: target, csrfToken: csrf });
  } else exchange.redirect(target);
}

/**
 * Refuses (401 MFA_SIGN_IN_ENDED, an MFA `SECURITY` event) a request that would finish a step-up without
 * carrying the sign-in it upgrades, before any factor is judged, so the flow is not spent: a bearer
 * step-up needs the caller's access token of the same sign-in (same user and `sid`), a session step-up
 * the caller's session of the same sign-in. The binding and the code alone are not enough.
 */
export async function assertStepUpCaller(
  exchange: HttpExchange,
  ctx: FactorContext,
  runtime: MfaRuntime,
): Promise<void> {
  if (ctx.purpose !== "step-up" || isCallerOf(exchange, ctx.primary)) return;
  throw await signInEnded(runtime, ctx);
}

/** True when the request is authenticated as the very sign-in `primary` (see {@link assertStepUpCaller}). */
function isCallerOf(exchange: HttpExchange, primary: Authentication): boolean {
  const caller = currentAuthentication(exchange);
  if (caller === undefined) return false;
  if (primary.method === "bearer") {
    return (
      isBearerAuthentication(caller) &&
      isBearerAuthentication(primary) &&
      caller.userId === primary.userId &&
      caller.familyId === primary.familyId
    );
  }
  return caller.method !== "bearer" && sameSignIn(caller, primary);
}

async function signInEnded(runtime: MfaRuntime, ctx: FactorContext, cause?: unknown): Promise<PlatformError> {
  const message = "The sign-in this step-up would upgrade has ended; sign in again";
  await runtime.reportError("SECURITY", "MFA_SIGN_IN_ENDED", message, ctx.userId, ctx.mfaSessionId);
  return new PlatformError("MFA_SIGN_IN_ENDED", message, {
    cause,
    status: MFA_ERROR_CODES.MFA_SIGN_IN_ENDED.status,
  });
}

/** True when both are the same sign-in: same user, same primary sign-in time and method. */
function sameSignIn(a: Authentication, b: Authentication): boolean {
  return a.userId === b.userId && a.authenticatedAt === b.authenticatedAt && a.method === b.method;
}

/** One entry per factor type, the most recent proof kept (repeated step-ups do not grow the list). */
export function mergeFactors(
  existing: readonly AuthenticationFactor[],
  proved: readonly AuthenticationFactor[],
): AuthenticationFactor[] {
  const latest = new Map<AuthenticationFactor["type"], AuthenticationFactor>();
  for (const f of [...existing, ...proved]) {
    const seen = latest.get(f.type);
    if (!seen || f.at > seen.at) latest.set(f.type, f);
  }
  return [...latest.values()];
}
