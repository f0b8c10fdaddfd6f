import type { DependencyContainer, InjectionToken } from "tsyringe";
import { type ChainRoute, type RouteMount, routeMount } from "../../identity/chain/chain-route.js";
import { UserRepository } from "../../identity/users/user-repository.js";
import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock } from "../../kernel/clock.js";
import { UrlAuthorizationManager } from "../pdp/url-authorization-manager.js";
import { PolicyAdministrationService } from "../policy/policy-administration-service.js";
import { ZeroTrustActionService } from "../zerotrust/zero-trust-action-service.js";
import { AUTHZ_ADMIN_FEATURE, PolicyAdminEndpoints } from "./policy-admin-endpoints.js";
import { PlatformProperties } from "../../kernel/properties.js";
import { POLICY_TIME_ZONE, resolveTimeZone } from "../authz.properties.js";
import { ExpressionCompiler } from "../expression/expression-compiler.js";
import { PolicyExpressionConverter } from "../expression/policy-expression-converter.js";
import { BusinessRuleEndpoint } from "./business-rule-endpoint.js";
import { PolicyHistoryEndpoint } from "./policy-history-endpoint.js";
import { StaticRuleEndpoints } from "./static-rule-endpoints.js";
import { StaticRuleService } from "../static-rules/static-rule-service.js";
import { PolicySimulationEndpoint } from "./policy-simulation-endpoint.js";
import { ZeroTrustAdminEndpoints } from "./zero-trust-admin-endpoints.js";

/**
 * Routes a module above authz adds to the authorization admin API (a family: the resources module's
 * `/admin/api/resources/**`), so one `authorizationAdminApi()` mount serves them on the same chain.
 */
export interface AuthzAdminRouteSource {
  /** A literal id, for diagnostics (`resources`). */
  readonly id: string;
  routes(container: DependencyContainer): ChainRoute[];
}

/** DI token of the AuthzAdminRouteSource family (members added with `registerMember`). */
export const AuthzAdminRouteSource: InjectionToken<AuthzAdminRouteSource> = Symbol.for(
  "platform.authz.AuthzAdminRouteSource",
);

/**
 * The authorization admin API's routes over the platform's services: `/admin/api/policies/**` (the
 * PAP over HTTP, a deliberate addition: docs/decisions/authorization.md), `GET /admin/api/policies/{id}/history`,
 * `POST /admin/api/policies/build-from-business-rule`, `GET /admin/api/policies/static-rules` and
 * `POST /admin/api/policies/static-rules/import`, `POST /admin/api/policies/simulate`,
 * `/admin/api/zerotrust/actions/**`, and those of the AuthzAdminRouteSource members (the resources
 * module's `/admin/api/resources/**`). Each checks ROLE_ADMIN itself.
 */
export function authzAdminRoutes(container: DependencyContainer): ChainRoute[] {
  const simulation = new PolicySimulationEndpoint({
    manager: container.resolve(UrlAuthorizationManager),
    users: container.resolve(UserRepository),
    clock: container.resolve(Clock),
  });
  const service = container.resolve(PolicyAdministrationService);
  const policies = new PolicyAdminEndpoints({ service });
  const zeroTrust = new ZeroTrustAdminEndpoints({
    service: container.resolve(ZeroTrustActionService),
    audit: container.resolve(AuditSink),
  });
  return [
    ...simulation.routes(AUTHZ_ADMIN_FEATURE),
    ...policies.routes(),
    ...new PolicyHistoryEndpoint({ service }).routes(),
    ...new StaticRuleEndpoints({ rules: container.resolve(StaticRuleService), service }).routes(),
    ...new BusinessRuleEndpoint({
      service,
      compiler: container.resolve(ExpressionCompiler),
      converter: container.resolve(PolicyExpressionConverter),
      timeZone: resolveTimeZone(container.resolve(PlatformProperties).get(POLICY_TIME_ZONE)),
    }).routes(),
    ...zeroTrust.routes(AUTHZ_ADMIN_FEATURE),
    ...(container.isRegistered(AuthzAdminRouteSource, true)
      ? container.resolveAll(AuthzAdminRouteSource).flatMap((source) => source.routes(container))
      : []),
  ];
}

/**
 * The authorization admin API mounted on a chain with `http.addFilterAfter(authorizationAdminApi(),
 * "authorization")`: its routes (see {@link authzAdminRoutes}) join the route table under that chain
 * and are served after authorization; CSRF is the chain's (session callers). Attached to the
 * platform's services at start.
 */
export function authorizationAdminApi(): RouteMount {
  return routeMount({
    name: "authz-admin-api",
    feature: AUTHZ_ADMIN_FEATURE,
    label: "authorizationAdminApi()",
    routes: authzAdminRoutes,
  });
}
