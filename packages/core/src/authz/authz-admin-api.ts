import { PolicyAdministrationService } from "./policy/policy-administration-service.js";
import type { DependencyContainer } from "tsyringe";
import type { ContainerAware } from "../identity/chain/container-aware.js";
import type { NextFilter, SecurityFilter } from "../identity/chain/security-filter.js";
import { UserRepository } from "../identity/users/user-repository.js";
import { AuditSink } from "../kernel/audit-sink.js";
import { Clock } from "../kernel/clock.js";
import { PlatformError } from "../kernel/platform-error.js";
import type { HttpExchange } from "../web/http-exchange.js";
import { UrlAuthorizationManager } from "./pdp/url-authorization-manager.js";
import { PolicySimulationFilter } from "./pdp/policy-simulation-filter.js";
import { PolicyAdminFilter } from "./policy/policy-admin-filter.js";
import { ZeroTrustActionService } from "./zerotrust/zero-trust-action-service.js";
import { ZeroTrustAdminFilter } from "./zerotrust/zero-trust-admin-filter.js";

/**
 * The authorization admin API as one chain filter, for `http.addFilterAfter(authorizationAdminApi(),
 * "authorization")`: `/admin/api/policies/**` (the PAP over HTTP, a deliberate addition: docs/decisions.md),
 * `POST /admin/api/policies/simulate` and `/admin/api/zerotrust/actions/**`. Each checks ROLE_ADMIN
 * itself; CSRF is the chain's (session callers). Attached to the platform's services at start.
 */
export function authorizationAdminApi(): SecurityFilter & ContainerAware {
  let filters: SecurityFilter[] | undefined;
  return {
    name: "authz-admin-api",
    attach(container: DependencyContainer): void {
      filters = [
        new PolicySimulationFilter({
          manager: container.resolve(UrlAuthorizationManager),
          users: container.resolve(UserRepository),
          clock: container.resolve(Clock),
        }),
        new PolicyAdminFilter({ service: container.resolve(PolicyAdministrationService) }),
        new ZeroTrustAdminFilter({
          service: container.resolve(ZeroTrustActionService),
          audit: container.resolve(AuditSink),
        }),
      ];
    },
    async filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
      if (!filters)
        throw new PlatformError(
          "DEPENDENCY_MISSING",
          "authorizationAdminApi() was not attached to a platform",
        );
      const run = (i: number): Promise<void> =>
        i < filters!.length ? filters![i]!.filter(exchange, () => run(i + 1)) : next();
      return run(0);
    },
  };
}
