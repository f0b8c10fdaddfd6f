import type { DependencyContainer } from "tsyringe";
import { type Authentication, currentAuthentication } from "../../identity/authentication/authentication.js";
import { ChainHook } from "../../identity/chain/chain-hook.js";
import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { stepUpChallenge } from "./step-up-challenge.js";

/** Starts a step-up for a caller whose second factor is not fresh; its fields go into the 401 body. */
export type StepUpStarter = (exchange: HttpExchange, who: Authentication) => Promise<object | undefined>;

/** Whether `who` proved a second factor (amr `otp` or `hwk`) at or after `since` (epoch ms). */
export function provedSecondFactorSince(who: Authentication, since: number): boolean {
  return who.factors.some((f) => (f.type === "otp" || f.type === "hwk") && f.at >= since);
}

/**
 * The step-up starter of the platform's chain hooks (the MFA chain hook's `onAccessDenied`), read
 * when a request needs it: without an MFA chain the 401 carries no started flow.
 */
export function chainStepUpStarter(container: DependencyContainer): StepUpStarter {
  return async (exchange, who) => {
    if (!container.isRegistered(ChainHook, true)) return undefined;
    for (const hook of container.resolveAll(ChainHook)) {
      if (hook.onAccessDenied) return hook.onAccessDenied(exchange, who);
    }
    return undefined;
  };
}

/** What {@link requireFreshSecondFactor} reads. */
export interface FreshSecondFactorOptions {
  clock: Clock;
  /** A second factor proved within this long is fresh (milliseconds). */
  maxAgeMs: number;
  startStepUp: StepUpStarter;
}

/**
 * The signed-in caller of an account endpoint whose change needs a fresh second factor (enrolling a
 * factor, new recovery codes, a new e-mail address, ending sessions): 401 AUTHENTICATION_REQUIRED
 * when anonymous, 401 MFA_CHALLENGE_REQUIRED with a started step-up when the last second factor is
 * older than `maxAgeMs`.
 */
export async function requireFreshSecondFactor(
  exchange: HttpExchange,
  o: FreshSecondFactorOptions,
): Promise<Authentication> {
  const who = currentAuthentication(exchange);
  if (!who) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
  if (provedSecondFactorSince(who, o.clock.now() - o.maxAgeMs)) return who;
  throw stepUpChallenge(o.maxAgeMs).error(await o.startStepUp(exchange, who));
}
