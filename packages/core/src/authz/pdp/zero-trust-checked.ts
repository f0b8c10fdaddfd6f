import type { DependencyContainer } from "tsyringe";
import type { Authentication } from "../../identity/authentication/authentication.js";
import { attachToContainer, type ContainerAware } from "../../identity/chain/container-aware.js";
import type {
  AuthorizationDecision,
  AuthorizationManager,
} from "../../identity/http-security/authorization-manager.js";
import { nameAuthorizationManager } from "../../identity/http-security/static-rule-tag.js";
import { Clock } from "../../kernel/clock.js";
import { stepUpChallenge } from "../../mfa/step-up/step-up-challenge.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { ZeroTrustActionResolver } from "../zerotrust/zero-trust-action-resolver.js";
import { sessionHandleOf } from "../zerotrust/zero-trust-plugin.js";
import { ResolverZeroTrustEvaluator } from "./resolver-zero-trust-evaluator.js";
import type { ZeroTrustEvaluator, ZeroTrustQuery, ZeroTrustVerdict } from "./zero-trust-evaluator.js";

/**
 * A static rule that also honours zero trust, as the PDP does for dynamic rules:
 * `.requestMatchers("/admin/api/**").access(zeroTrustChecked(rules.hasAnyRole("ADMIN")))`. What the
 * rule grants is refused when the caller's zero-trust action calls for it (in ENFORCE mode): ESCALATE
 * 423 ZERO_TRUST_REVIEW_REQUIRED, an unmet CHALLENGE a step-up (401 MFA_CHALLENGE_REQUIRED), BLOCK 403.
 * Without it a static rule never reads zero trust: an administrator held for review could still
 * administer, and lift their own hold. A platform without zero trust leaves the rule as it is.
 */
export function zeroTrustChecked(rule: AuthorizationManager): AuthorizationManager & ContainerAware {
  let evaluator: ZeroTrustEvaluator | undefined;
  let sessionOf: ReturnType<typeof sessionHandleOf> | undefined;
  let attached = false;
  const manager: AuthorizationManager & ContainerAware = {
    attach(container: DependencyContainer): void {
      attachToContainer(rule, container);
      if (container.isRegistered(ZeroTrustActionResolver, true)) {
        const resolver = container.resolve(ZeroTrustActionResolver);
        evaluator = new ResolverZeroTrustEvaluator(resolver, container.resolve(Clock));
        if (resolver.settings.sessionTrackingEnabled) sessionOf = sessionHandleOf(container);
      }
      attached = true;
    },
    async check(
      authentication: Authentication | undefined,
      exchange: HttpExchange,
    ): Promise<AuthorizationDecision> {
      // Never attached: fail closed rather than let a misassembled chain skip zero trust.
      if (!attached) return { granted: false, reason: "zeroTrustChecked is not attached" };
      const decision = await rule.check(authentication, exchange);
      if (!decision.granted || authentication === undefined || evaluator === undefined) return decision;
      const remembered = evaluator.remembered?.(authentication, exchange);
      if (remembered !== undefined) return refusalOf(remembered) ?? decision;
      const sessionId = await sessionOf?.(exchange);
      const query: ZeroTrustQuery = sessionId ? { authentication, sessionId } : { authentication };
      const cached = evaluator.cached(query);
      return refusalOf(cached !== undefined ? cached : await evaluator.evaluate(query)) ?? decision;
    },
  };
  return nameAuthorizationManager(manager, "zeroTrustChecked");
}

function refusalOf(verdict: ZeroTrustVerdict | null): AuthorizationDecision | undefined {
  const denial = verdict?.denial;
  if (!denial || verdict.mode !== "ENFORCE") return undefined;
  return {
    granted: false,
    reason: `zero trust: ${denial.reason}`,
    code: denial.code,
    message: denial.message,
    ...(denial.decisionId === undefined ? {} : { details: { decisionId: denial.decisionId } }),
    ...(denial.stepUp ? { stepUp: stepUpChallenge(denial.stepUp.maxAgeMs, denial.decisionId) } : {}),
  };
}
