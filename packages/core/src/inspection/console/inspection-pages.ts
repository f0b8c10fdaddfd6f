import { csrfToken } from "../../identity/csrf/csrf-token.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import { withErrorPage } from "../../policy-center/console-answers.js";
import {
  type ConsoleNotice,
  type ConsoleSection,
  renderConsolePage,
} from "../../web/console/console-page.js";
import { htmlAnswer, pageContract, pathParam } from "../../web/contract-parts.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { RouteContract } from "../../web/route-contract.js";
import type { Route } from "../../web/route-table.js";
import { OverviewQuery, PackagesQuery } from "../admin/inspection-admin-requests.js";
import { inspectionAdmin } from "../admin/inspection-admin-access.js";
import { PROMPT_INSPECTION_FEATURE } from "../admin/inspection-admin-endpoints.js";
import type { InspectionQueries } from "../admin/inspection-queries.js";
import {
  INSPECTION_PACKAGES_PAGE_PATH,
  INSPECTION_PAGE_PATH,
  INSPECTION_SECTION,
} from "./inspection-console-paths.js";
import { h, renderInspectionOverview } from "./inspection-overview-view.js";
import { renderInspectionPackage } from "./inspection-package-view.js";
import { renderRehearsals, SHOWN_REHEARSALS } from "./inspection-rehearsals-view.js";
import { type PackagesFilters, renderInspectionPackages } from "./inspection-packages-view.js";

/** What the pages read. */
export interface InspectionPagesOptions {
  readonly data: InspectionQueries;
  readonly audit: AuditSink;
  /** The console navigation (the ConsoleSection family), read per page. */
  readonly sections: () => readonly ConsoleSection[];
}

const FILTER_NAMES = ["verdict", "check", "block", "entry", "from", "to"] as const;

/** The filters as given, for the form to show them again (the data judged them already). */
function filtersOf(query: URLSearchParams): PackagesFilters {
  return Object.fromEntries(FILTER_NAMES.map((name) => [name, (query.get(name) ?? "").slice(0, 100)]));
}

/**
 * The prompt inspector's console pages (spec: `GET /platform/admin/prompt-inspection`, also
 * `/packages` and `/packages/{packageId}`), ADMIN only (401 anonymous; 403 audited
 * `inspection.admin.denied`): the overview of a capture period, the inspected packages with their
 * filters, and one package with every finding beside the prompt line it stands on (an audited read
 * of its prompts). Read-only: GET forms, no script, every value escaped; a bad filter or an unknown
 * package answers the page with an error notice and its status.
 */
export class InspectionPages {
  constructor(private readonly o: InspectionPagesOptions) {}

  /** GET and HEAD of each page. */
  routes(): Route[] {
    const page = (
      path: string,
      name: string,
      description: string,
      extra: Partial<RouteContract>,
      handler: Route["handler"],
    ): Route[] =>
      (["GET", "HEAD"] as const).map((method) => ({
        method,
        path,
        name: `inspection.page.${name}`,
        description,
        feature: PROMPT_INSPECTION_FEATURE,
        access: "admin" as const,
        meta: {
          contract: {
            ...pageContract(description),
            ...extra,
            responses: { ...pageContract(description).responses, ...extra.responses },
          },
        },
        handler,
      }));
    return [
      ...page(
        INSPECTION_PAGE_PATH,
        "overview",
        "The prompt inspector's overview of a capture period",
        {
          query: OverviewQuery,
          responses: {
            400: htmlAnswer("A malformed filter or period: a page that names it"),
          },
        },
        (x) => this.overview(x),
      ),
      ...page(
        INSPECTION_PACKAGES_PAGE_PATH,
        "packages",
        "Inspected packages by verdict, check, block, entry and period",
        {
          query: PackagesQuery,
          responses: {
            400: htmlAnswer("A malformed filter or period: a page that names it"),
          },
        },
        (x) => this.packages(x),
      ),
      ...page(
        `${INSPECTION_PACKAGES_PAGE_PATH}/{packageId}`,
        "package",
        "One inspected package: its findings beside its prompt lines",
        {
          pathParams: [pathParam("packageId", "The sealed package's id")],
          responses: {
            400: htmlAnswer("A malformed package id: a page that says so"),
            404: htmlAnswer("An unknown package (or one not inspected): a page that says so"),
          },
        },
        (x, p) => this.detail(x, p.packageId ?? ""),
      ),
    ];
  }

  private async overview(exchange: HttpExchange): Promise<void> {
    inspectionAdmin(exchange, this.o.audit);
    await withErrorPage(
      exchange,
      async () => {
        const [overview, rehearsals] = await Promise.all([
          this.o.data.overview(exchange.query),
          this.o.data.rehearsals(SHOWN_REHEARSALS),
        ]);
        const body = `${renderInspectionOverview(overview)}\n${renderRehearsals(rehearsals)}`;
        await this.write(exchange, 200, "Prompt inspection", body);
      },
      (status, notice) =>
        this.write(
          exchange,
          status,
          "Prompt inspection",
          backTo(INSPECTION_PAGE_PATH, "The last 7 days"),
          notice,
        ),
    );
  }

  private async packages(exchange: HttpExchange): Promise<void> {
    inspectionAdmin(exchange, this.o.audit);
    const title = "Inspected packages";
    await withErrorPage(
      exchange,
      async () => {
        const page = await this.o.data.packages(exchange.query);
        await this.write(exchange, 200, title, renderInspectionPackages(page, filtersOf(exchange.query)));
      },
      (status, notice) =>
        this.write(exchange, status, title, backTo(INSPECTION_PACKAGES_PAGE_PATH, "All packages"), notice),
    );
  }

  private async detail(exchange: HttpExchange, packageId: string): Promise<void> {
    const admin = inspectionAdmin(exchange, this.o.audit);
    const title = "Inspected package";
    await withErrorPage(
      exchange,
      async () => {
        const reader = { principal: admin.username, remoteAddress: exchange.remoteAddress };
        const detail = await this.o.data.detail(packageId, reader);
        await this.write(exchange, 200, title, renderInspectionPackage(detail));
      },
      (status, notice) =>
        this.write(exchange, status, title, backTo(INSPECTION_PACKAGES_PAGE_PATH, "All packages"), notice),
    );
  }

  private async write(
    exchange: HttpExchange,
    status: number,
    title: string,
    body: string,
    notice?: ConsoleNotice,
  ): Promise<void> {
    const token = csrfToken(exchange);
    exchange.html(
      status,
      renderConsolePage({
        title,
        sections: this.o.sections(),
        active: INSPECTION_SECTION.id,
        csrfToken: token ? await token.value() : undefined,
        notice,
        body,
      }),
    );
  }
}

function backTo(path: string, label: string): string {
  return `<p><a href="${h(path)}">${h(label)}</a></p>`;
}
