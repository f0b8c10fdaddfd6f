import {
  type Authentication,
  type AuthenticationFactor,
  setCurrentAuthentication,
} from "../../identity/authentication/authentication.js";
import type { SecurityContextRepository } from "../../identity/context/security-context-repository.js";
import type { TokenIssuer } from "../../identity/handlers/oauth2-handlers.js";
import { csrfToken } from "../../identity/csrf/csrf-token.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { FactorContext } from "../state/factor-context.js";
import type { MfaRuntime } from "./mfa-runtime.js";

/** What finishing a step-up needs: the session repository (session users) and the token issuer (bearer). */
export interface StepUpCompletion {
  sessionRepository: SecurityContextRepository;
  tokens: TokenIssuer;
}

/**
 * Finishes a step-up: the same authentication gains the new factor (its sign-in time and method stay;
 * it is never a fresh sign-in). A session user's session is upgraded (saved again, id rotated); a bearer
 * client gets a new access token whose `amr`/`amr_times` carry the factor and whose `auth_time` is the
 * original sign-in.
 */
export async function completeStepUp(
  exchange: HttpExchange,
  ctx: FactorContext,
  runtime: MfaRuntime,
  completion: StepUpCompletion,
): Promise<void> {
  const proved = ctx.completedFactors.map((f) => ({
    type: f.type === "OTT" ? ("otp" as const) : ("hwk" as const),
    at: f.at,
  }));
  await runtime.finish(exchange, ctx);
  const primary = ctx.primary as Authentication & { originalMethod?: Authentication["method"] };
  if (primary.method === "bearer") {
    const {
      tokenId: _t,
      originalMethod,
      expiresAt: _e,
      ...rest
    } = primary as typeof primary & { tokenId?: string; expiresAt?: number };
    const upgraded: Authentication = {
      ...rest,
      method: originalMethod ?? "rest",
      factors: mergeFactors(rest.factors, proved),
    };
    const pair = await completion.tokens.issue(upgraded);
    exchange.response.headers.set("cache-control", "no-store");
    exchange.json(200, { success: true, stepUp: true, ...pair });
    return;
  }
  const upgraded: Authentication = { ...primary, factors: mergeFactors(primary.factors, proved) };
  await completion.sessionRepository.save(exchange, upgraded);
  setCurrentAuthentication(exchange, upgraded);
  if (exchange.wantsJson()) {
    // The session's CSRF token may have rotated with the upgrade: a page retrying a POST needs it.
    const csrf = (await csrfToken(exchange)?.value()) ?? null;
    exchange.json(200, { success: true, stepUp: true, redirectUrl: "/", csrfToken: csrf });
  } else exchange.redirect("/");
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
