import type { DependencyContainer } from "tsyringe";
import { PlatformProperties } from "../../kernel/properties.js";
import { PROMPT_BUNDLE_SELECTOR } from "../../prompts/prompts.properties.js";
import { AuditSink } from "../../kernel/audit-sink.js";
import type { PluginContext } from "../../kernel/plugin.js";
import { ConsoleSection } from "../../web/console/console-page.js";
import { RouteTable } from "../../web/route-table.js";
import { ConvergenceReports } from "../convergence/convergence-report.js";
import { ReleasesPage } from "../console/releases-page.js";
import { ConvergenceEndpoint } from "./convergence-endpoint.js";
import { EvidenceIntake, ReleaseGovernance } from "../release-governance.js";
import { ReleaseAdminEndpoints } from "./release-admin-endpoints.js";
import { RELEASES_SECTION } from "./release-admin-paths.js";

/**
 * The release API and the releases page, for `promptGovernancePlugin` to call from its `register`
 * when `platform.prompt.governance.enabled` is true: adds the page's entry to the console navigation
 * and, at start, the routes to the RouteTable (when there is one: a platform without the HTTP binding
 * has none). The evidence routes are added when an EvidenceIntake is registered, the convergence
 * report's when ConvergenceReports is (`registerConvergence`).
 */
export function registerReleaseAdmin(ctx: Pick<PluginContext, "registerMember" | "onStart">): void {
  ctx.registerMember(ConsoleSection, { useValue: RELEASES_SECTION });
  ctx.onStart("governance-admin", (c) => {
    if (!c.isRegistered(RouteTable, true)) return;
    const table = c.resolve(RouteTable);
    for (const route of releaseAdminRoutes(c)) table.add(route);
  });
}

/** The release API's and the releases page's routes over the container's services. */
export function releaseAdminRoutes(c: DependencyContainer) {
  const governance = c.resolve(ReleaseGovernance);
  const audit = c.resolve(AuditSink);
  const evidence = c.isRegistered(EvidenceIntake, true) ? c.resolve(EvidenceIntake) : undefined;
  const reports = c.isRegistered(ConvergenceReports, true) ? c.resolve(ConvergenceReports) : undefined;
  const page = new ReleasesPage({
    governance,
    audit,
    convergence: reports,
    sections: () => c.resolveAll(ConsoleSection),
    selector: c.resolve(PlatformProperties).get(PROMPT_BUNDLE_SELECTOR),
  });
  const convergence = reports === undefined ? [] : new ConvergenceEndpoint({ reports, audit }).routes();
  return [
    ...new ReleaseAdminEndpoints({ governance, evidence, audit }).routes(),
    ...convergence,
    ...page.routes(),
  ];
}
