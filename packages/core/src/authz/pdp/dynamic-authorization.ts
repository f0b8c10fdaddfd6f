import type { DependencyContainer } from "tsyringe";
import type { Authentication } from "../../identity/authentication/authentication.js";
import type { ContainerAware } from "../../identity/chain/container-aware.js";
import type { AuthorizationManager } from "../../identity/http-security/authorization-manager.js";
import { nameAuthorizationManager } from "../../identity/http-security/static-rule-tag.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { PolicyDecision } from "./policy-decision.js";
import { UrlAuthorizationManager } from "./url-authorization-manager.js";

/**
 * The dynamic manager for the DSL, usable before the platform exists:
 * `.authorizeHttpRequests((a) => a.anyRequest().access(dynamicAuthorization()))`. Chain assembly
 * attaches it to the platform's UrlAuthorizationManager at start; a platform without the
 * authorization plugin fails start-up with DEPENDENCY_MISSING instead of allowing everything.
 */
export function dynamicAuthorization(): AuthorizationManager & ContainerAware {
  const self: AuthorizationManager & ContainerAware = {
    attach(container: DependencyContainer): void {
      if (!container.isRegistered(UrlAuthorizationManager, true)) {
        throw new PlatformError(
          "DEPENDENCY_MISSING",
          "anyRequest().access(dynamicAuthorization()) needs the authorization plugin (authzPlugin) in the platform",
        );
      }
      const manager = container.resolve(UrlAuthorizationManager);
      // Once attached, `check` is the manager's own (bound): a request runs no wrapper of ours.
      self.check = manager.check.bind(manager);
    },
    check(_authentication: Authentication | undefined, _exchange: HttpExchange): Promise<PolicyDecision> {
      // Never attached: fail closed rather than let a misassembled chain allow everything.
      return Promise.resolve({ granted: false, reason: "dynamic authorization is not attached" });
    },
  };
  return nameAuthorizationManager(self, DYNAMIC_AUTHORIZATION_NAME);
}

/** The name `dynamicAuthorization()` gives its manager in listings of static rules (the hand-over to policies). */
export const DYNAMIC_AUTHORIZATION_NAME = "dynamicAuthorization";
