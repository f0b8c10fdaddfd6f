import { SealedEvidenceToken } from "../../decisions/evidence/sealed-evidence-service.js";
import { ReleaseEvidenceLedger } from "../../governance/evidence/release-evidence-ledger.js";
import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock } from "../../kernel/clock.js";
import type { PluginContext } from "../../kernel/plugin.js";
import { BundleCatalog } from "../../prompts/bundle-catalog-token.js";
import { ConsoleSection } from "../../web/console/console-page.js";
import { RouteTable } from "../../web/route-table.js";
import { dictionaryVersionOf } from "../inspect-package.js";
import { InspectionResultStore } from "../results/inspection-result-store.js";
import { addRehearsalRoute } from "../rehearsal/rehearsal-route.js";
import { InspectionQueries } from "../admin/inspection-queries.js";
import { INSPECTION_SECTION } from "./inspection-console-paths.js";
import { InspectionPages } from "./inspection-pages.js";

/**
 * The inspector's console pages and the counterfactual rehearsal's route, for the inspection plugin
 * to call from its `register` (one line, so the plugin file stays the inspection's): the pages'
 * entry in the console navigation and, at start, their routes and the rehearsal's, when there is a
 * RouteTable (a platform without the HTTP binding has none).
 */
export function registerInspectionConsole(ctx: Pick<PluginContext, "registerMember" | "onStart">): void {
  ctx.registerMember(ConsoleSection, { useValue: INSPECTION_SECTION });
  ctx.onStart("prompt-inspection-console", (c) => {
    if (!c.isRegistered(RouteTable, true)) return;
    const data = new InspectionQueries({
      results: c.resolve(InspectionResultStore),
      ledger: c.isRegistered(ReleaseEvidenceLedger, true) ? c.resolve(ReleaseEvidenceLedger) : undefined,
      evidence: c.resolve(SealedEvidenceToken),
      dictionaryVersion: dictionaryVersionOf(c.resolve(BundleCatalog)),
      now: () => c.resolve(Clock).now(),
    });
    const pages = new InspectionPages({
      data,
      audit: c.resolve(AuditSink),
      sections: () => c.resolveAll(ConsoleSection),
    });
    for (const route of pages.routes()) c.resolve(RouteTable).add(route);
    addRehearsalRoute(c);
  });
}
