import type { DependencyContainer } from "tsyringe";
import type { Authentication } from "../../identity/authentication/authentication.js";
import type { ContainerAware } from "../../identity/chain/container-aware.js";
import type {
  AuthorizationDecision,
  AuthorizationManager,
} from "../../identity/http-security/authorization-manager.js";
import type { ContributedRule } from "../../identity/http-security/contributed-rule.js";
import { Clock } from "../../kernel/clock.js";
import { provedSecondFactorSince } from "./fresh-second-factor.js";
import { stepUpChallenge } from "./step-up-challenge.js";

declare module "../../identity/http-security/authorization-manager.js" {
  interface ContributedRules {
    /**
     * A signed-in user who proved a second factor (OTT code or passkey: amr `otp`/`hwk`) within
     * `maxAgeMs`; one without such a factor gets a step-up challenge (401 MFA_CHALLENGE_REQUIRED).
     * `now` defaults to the platform's Clock once the rule is on a chain (Date.now before).
     */
    recentFactor(maxAgeMs: number, now?: () => number): AuthorizationManager;
  }
}

/** The `recentFactor` rule (`requestMatchers(...).recentFactor` on a platform with mfaPlugin). */
export function recentFactor(maxAgeMs: number, now?: () => number): AuthorizationManager & ContainerAware {
  let clock: () => number = now ?? Date.now;
  const decide = (granted: boolean, reason: string): AuthorizationDecision => ({ granted, reason });
  return {
    // A chain attaches its rules to the platform at assembly: the Clock port then tells the time.
    attach(container: DependencyContainer): void {
      if (now !== undefined) return;
      const platformClock = container.resolve(Clock);
      clock = () => platformClock.now();
    },
    check: async (a: Authentication | undefined) => {
      if (!a) return decide(false, "recentFactor: anonymous");
      return provedSecondFactorSince(a, clock() - maxAgeMs)
        ? decide(true, `recentFactor(${maxAgeMs})`)
        : { ...decide(false, `recentFactor(${maxAgeMs})`), stepUp: stepUpChallenge(maxAgeMs) };
    },
  };
}

/** `recentFactor` as the static rule `mfaPlugin` contributes to its platform's `authorizeHttpRequests`. */
export const recentFactorRule: ContributedRule = Object.freeze({ name: "recentFactor", rule: recentFactor });
