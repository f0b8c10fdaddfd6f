import { csrfToken } from "../../identity/csrf/csrf-token.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import { withErrorPage } from "../../policy-center/console-answers.js";
import {
  type ConsoleNotice,
  type ConsoleSection,
  renderConsolePage,
} from "../../web/console/console-page.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { PAGE_SCRIPT_PATHS } from "../../web/page-scripts.js";
import type { Route } from "../../web/route-table.js";
import { pageContract } from "../../web/contract-parts.js";
import { releaseAdmin } from "../admin/release-admin-access.js";
import { RELEASE_ADMIN_FEATURE } from "../admin/release-admin-endpoints.js";
import { RELEASES_PAGE_PATH, RELEASES_SECTION } from "../admin/release-admin-paths.js";
import { ReleasesQuery, releaseQuery } from "../admin/release-admin-requests.js";
import type { ConvergenceReports } from "../convergence/convergence-report.js";
import type { ReleaseScopeHead } from "../registry/release-registry.js";
import { ALLOWED_RELEASE_TRANSITIONS } from "../registry/release-state.js";
import type { GovernanceActor, ReleaseGovernance } from "../release-governance.js";
import { type NextStatePreview, previewKey, renderReleasesBody } from "./releases-view.js";

/** History entries the page shows. */
const PAGE_HISTORY_LIMIT = 50;
/** Releases whose next states the page previews with dry runs (the rest show none). */
const MAX_PREVIEWED_RELEASES = 60;
const PREVIEW_RATIONALE = "console preview (dry run)";

/** Options of the ReleasesPage. */
export interface ReleasesPageOptions {
  readonly governance: ReleaseGovernance;
  readonly audit: AuditSink;
  /** The convergence report each scope's section shows; absent: the page shows none. */
  readonly convergence?: ConvergenceReports | undefined;
  /** The console navigation (the ConsoleSection family), read per page. */
  readonly sections: () => readonly ConsoleSection[];
  /** Which selector decisions run (`prompt-bundle.selector`): the page says whether they follow the registry. */
  readonly selector?: "CONFIGURATION" | "REGISTRY" | undefined;
}

/**
 * The releases page of the admin console (`GET /platform/admin/prompt-quality/releases`, optional
 * `registryScope`): each scope's releases with state, hash, canary fields, approval and rollback
 * state; the blockers of each release's next allowed states (dry runs: nothing recorded); the open
 * emergency stops (UNRATIFIED flagged as an alert) with ratify/revert buttons for any administrator
 * but their operator; every instance's convergence verdict, and per scope its executing releases
 * (canary share and targets) and each reporting instance's verdict there; the history; forms for a transition (with a dry-run preview) and a rollback or
 * emergency stop. The forms and buttons are the page script's (`/js/platform-releases-page.js`),
 * which calls the release API with the session's CSRF token. ADMIN only.
 */
export class ReleasesPage {
  constructor(private readonly o: ReleasesPageOptions) {}

  /** GET and HEAD of the page (other methods: the route table's 405). */
  routes(): Route[] {
    return (["GET", "HEAD"] as const).map((method) => ({
      method,
      path: RELEASES_PAGE_PATH,
      name: "governance.releases.page",
      description: "The releases page of the admin console: releases, blockers, emergency stops, history",
      feature: RELEASE_ADMIN_FEATURE,
      access: "admin" as const,
      meta: { contract: { ...pageContract("The releases page"), query: ReleasesQuery } },
      handler: (x: HttpExchange) => this.page(x),
    }));
  }

  private async page(exchange: HttpExchange): Promise<void> {
    const actor = releaseAdmin(exchange, this.o.audit);
    await withErrorPage(
      exchange,
      async () => {
        const query = releaseQuery(ReleasesQuery, exchange.query);
        const heads = await this.o.governance.releases(query.registryScope);
        const [previews, history, convergence] = await Promise.all([
          this.previews(heads, actor),
          this.o.governance.history({ registryScope: query.registryScope, limit: PAGE_HISTORY_LIMIT }),
          // A heartbeat store that cannot be read costs the page its convergence part, not the page.
          this.o.convergence?.report(query.registryScope).catch(() => "UNAVAILABLE" as const),
        ]);
        await this.write(
          exchange,
          200,
          renderReleasesBody({
            heads,
            previews,
            history,
            viewer: actor.username,
            convergence,
            selector: this.o.selector,
          }),
        );
      },
      (status, notice) =>
        this.write(exchange, status, `<p><a href="${RELEASES_PAGE_PATH}">All releases</a></p>`, notice),
    );
  }

  /** Dry runs of every allowed next state of the first releases: what the gate would say, nothing recorded. */
  private async previews(
    heads: readonly ReleaseScopeHead[],
    actor: GovernanceActor,
  ): Promise<Map<string, NextStatePreview[]>> {
    const releases = heads.flatMap((head) => head.releases).slice(0, MAX_PREVIEWED_RELEASES);
    const previews = new Map<string, NextStatePreview[]>();
    for (const r of releases) {
      const next: NextStatePreview[] = [];
      for (const target of ALLOWED_RELEASE_TRANSITIONS[r.status]) {
        const receipt = await this.o.governance.transition(
          {
            registryScope: r.registryScope,
            promptKey: r.promptKey,
            promptVersion: r.promptVersion,
            targetReleaseStatus: target,
            rationale: PREVIEW_RATIONALE,
          },
          actor,
          { dryRun: true },
        );
        next.push({ target, blockers: receipt.blockers });
      }
      previews.set(previewKey(r), next);
    }
    return previews;
  }

  private async write(
    exchange: HttpExchange,
    status: number,
    body: string,
    notice?: ConsoleNotice,
  ): Promise<void> {
    const token = csrfToken(exchange);
    exchange.html(
      status,
      renderConsolePage({
        title: "Prompt releases",
        sections: this.o.sections(),
        active: RELEASES_SECTION.id,
        csrfToken: token ? await token.value() : undefined,
        notice,
        body,
        scripts: [PAGE_SCRIPT_PATHS.releasesPage],
      }),
    );
  }
}
