import { AuthzAdminRouteSource } from "../authz/admin/authz-admin-api.js";
import { POLICY_REFRESH_INTERVAL } from "../authz/authz.properties.js";
import { PolicyAdministrationService } from "../authz/policy/policy-administration-service.js";
import type { PlatformPlugin } from "../kernel/plugin.js";
import { PlatformError } from "../kernel/platform-error.js";
import { ManagedResourceService } from "../resources/managed-resource-service.js";
import { ConsoleSection } from "../web/console/console-page.js";
import { PolicyCenterEndpoints } from "./policy-center-endpoints.js";
import { POLICY_CENTER_SECTION } from "./policy-center-paths.js";
import { policyHistoryReader } from "./policy-history-slot.js";
import { authoringRoutesOf, policyAuthoringEndpoints } from "./policy-authoring-routes.js";
import { writeConsolePage } from "./console-answers.js";
import type { ChainRoute } from "../identity/chain/chain-route.js";
import type { DependencyContainer } from "tsyringe";
import { StaticRuleService } from "../authz/static-rules/static-rule-service.js";

/**
 * The Policy Center: the administrators' console for managed resources and policies at
 * `/admin/policy-center` (tabs resources, policies, create; a page per policy), with the legacy
 * `/admin/workbench/resources` routes. Server-rendered, no inline script or style, every form a CSRF
 * post that redirects back with a notice; its routes join `authorizationAdminApi()` (ADMIN only) and
 * its entry the console navigation (a ConsoleSection member). Needs `authzPlugin` and
 * `resourcesPlugin` listed before it: without them, start-up stops with CONFIGURATION_INVALID.
 */
/** The console's routes and the authoring routes (quick and manual creation), framed by one shell. */
function policyCenterRoutes(c: DependencyContainer): ChainRoute[] {
  const sections = () => c.resolveAll(ConsoleSection);
  const authoring = policyAuthoringEndpoints(c, (x, page) =>
    writeConsolePage(x, { sections }, { ...page, tab: "create" }),
  );
  const console = new PolicyCenterEndpoints({
    resources: c.resolve(ManagedResourceService),
    policies: c.resolve(PolicyAdministrationService),
    sections,
    history: policyHistoryReader(c),
    createTab: (x, resourceId) => authoring.createTab(x, resourceId),
    staticRules: c.isRegistered(StaticRuleService, true) ? c.resolve(StaticRuleService) : undefined,
  });
  return [...console.routes(), ...authoringRoutesOf(authoring)];
}

export const policyCenterPlugin: PlatformPlugin = {
  id: "policy-center",
  register(ctx) {
    if (!ctx.properties.declares(POLICY_REFRESH_INTERVAL.key)) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        "policyCenterPlugin needs authzPlugin listed before it",
      );
    }
    if (!ctx.container.isRegistered(ManagedResourceService, true)) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        "policyCenterPlugin needs resourcesPlugin listed before it",
      );
    }
    ctx.registerMember(ConsoleSection, { useValue: POLICY_CENTER_SECTION });
    ctx.registerMember(AuthzAdminRouteSource, {
      useValue: { id: "policy-center", routes: policyCenterRoutes },
    });
  },
};
