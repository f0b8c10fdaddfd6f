import type { Authentication } from "../identity/authentication/authentication.js";
import { type ChainRoute, resourceRoutes } from "../identity/chain/chain-route.js";
import { PlatformError } from "../kernel/platform-error.js";
import { RESOURCE_ACTIONS, type ResourceAction } from "../resources/resource-lifecycle.js";
import type { HttpExchange } from "../web/http-exchange.js";
import { PAGE_SCRIPT_PATHS } from "../web/page-scripts.js";
import { AUTHZ_ADMIN_FEATURE } from "../authz/admin/policy-admin-endpoints.js";
import { noticeOf } from "./console-notices.js";
import { checkConsoleId, parseQuery } from "./console-input.js";
import {
  NoticeQuery,
  type PageQuery,
  pageQuery,
  policyFilterOf,
  ResourceQuery,
  resourceQueryString,
} from "./console-query.js";
import {
  consoleAdmin,
  errorBody,
  formToken,
  type PolicyCenterServices,
  withErrorPage,
  writeConsolePage,
} from "./console-answers.js";
import { POLICY_CENTER_CONTRACTS as C } from "./policy-center-contracts.js";
import { POLICY_CENTER_PATH, tabHref, WORKBENCH_RESOURCES_PATH } from "./policy-center-paths.js";
import {
  POLICY_MOVES,
  type PolicyMove,
  policyAction,
  policyBodyOrNothing,
} from "./policy-console-actions.js";
import { renderPoliciesTab } from "./policies-tab.js";
import {
  importStaticRules,
  renderStaticRulesSection,
  STATIC_RULES_IMPORT_PATH,
  staticRulesOf,
} from "./static-rules-console.js";
import { resourceAction, resourcesTabBody } from "./resource-console-actions.js";

const RESOURCE_VERBS: Record<ResourceAction, string> = {
  define: "Defines a resource as a permission from the console's form (303 back with a notice)",
  exclude: "Excludes a resource from the console's form (303 back with a notice)",
  restore: "Restores an excluded resource from the console's form (303 back with a notice)",
};

/**
 * The Policy Center's routes, mounted with the authorization admin API (ADMIN only, checked before
 * the request is read; CSRF is the chain's): the page with its tabs, a policy's page, the form posts
 * of resources and policies, and the legacy workbench routes the spec names.
 */
export class PolicyCenterEndpoints {
  constructor(private readonly services: PolicyCenterServices) {}

  /** Every route, each with its methods and ANY (405). */
  routes(): ChainRoute[] {
    const common = { feature: AUTHZ_ADMIN_FEATURE, access: "admin" } as const;
    const page = (name: string, description: string, contract: (typeof C)[keyof typeof C]) => ({
      GET: { name, description, contract },
      HEAD: { name, description, contract },
    });
    const routes = [
      ...resourceRoutes(
        { ...common, path: POLICY_CENTER_PATH, handler: (x) => this.page(x) },
        page("policy-center.page", "The Policy Center console (tab=resources|policies|create)", C.page),
        { name: "policy-center.page.other" },
      ),
      ...resourceRoutes(
        {
          ...common,
          path: `${POLICY_CENTER_PATH}/policies/*`,
          handler: (x, p) => this.policyPage(x, p["*"]!),
        },
        page("policy-center.policy", "One policy's page: edit, moves, history", C.policyPage),
        { name: "policy-center.policy.other" },
      ),
      ...resourceRoutes(
        { ...common, path: WORKBENCH_RESOURCES_PATH, handler: (x) => this.workbench(x) },
        page(
          "policy-center.workbench",
          "Legacy resource list: 302 to the resources tab, same filter",
          C.workbench,
        ),
        { name: "policy-center.workbench.other" },
      ),
    ];
    for (const action of ["edit", ...POLICY_MOVES] as const) routes.push(...this.policyPost(action));
    routes.push(
      ...resourceRoutes(
        { ...common, path: STATIC_RULES_IMPORT_PATH, handler: (x) => importStaticRules(x, this.services) },
        {
          POST: {
            name: "policy-center.static-rules.import",
            description:
              "Imports every importable static rule as a policy (303 to the policies tab with a notice)",
            contract: C.importStaticRules,
          },
        },
        { name: "policy-center.static-rules.import.other" },
      ),
    );
    for (const action of RESOURCE_ACTIONS) {
      for (const [base, prefix] of [
        [`${POLICY_CENTER_PATH}/resources`, "policy-center.resources"],
        [WORKBENCH_RESOURCES_PATH, "policy-center.workbench"],
      ] as const) {
        routes.push(
          ...resourceRoutes(
            {
              ...common,
              path: `${base}/*/${action}`,
              handler: (x, p) => resourceAction(x, this.services, p["*"]!, action),
            },
            {
              POST: {
                name: `${prefix}.${action}`,
                description: RESOURCE_VERBS[action],
                contract: action === "define" ? C.define : C.move,
              },
            },
            { name: `${prefix}.${action}.other` },
          ),
        );
      }
    }
    return routes;
  }

  private policyPost(action: PolicyMove | "edit"): ChainRoute[] {
    const contract = action === "edit" ? C.edit : action === "reject" ? C.reject : C.policyMove;
    return resourceRoutes(
      {
        feature: AUTHZ_ADMIN_FEATURE,
        access: "admin",
        path: `${POLICY_CENTER_PATH}/policies/*/${action}`,
        handler: (x, p) => policyAction(x, this.services, p["*"]!, action),
      },
      {
        POST: {
          name: `policy-center.policies.${action}`,
          description: `${action === "edit" ? "Saves a policy's edit form (compare-and-set on version)" : `${action[0]!.toUpperCase()}${action.slice(1)}s a policy`} from the console (303 back with a notice)`,
          contract,
        },
      },
      { name: `policy-center.policies.${action}.other` },
    );
  }

  private async page(exchange: HttpExchange): Promise<void> {
    const admin = consoleAdmin(exchange, this.services.policies, ["GET", "HEAD"]);
    await withErrorPage(
      exchange,
      async () => {
        const query = pageQuery(exchange.query);
        const tab = query.tab ?? "resources";
        if (tab === "create") {
          const created = await this.services.createTab(exchange, query.resourceId);
          await writeConsolePage(exchange, this.services, {
            ...created,
            tab,
            notice: created.notice ?? noticeOf(query.notice),
            scripts: [PAGE_SCRIPT_PATHS.policyCenterPage],
          });
          return;
        }
        const body = await this.tabBody(exchange, query, admin);
        await writeConsolePage(exchange, this.services, {
          status: 200,
          tab,
          notice: noticeOf(query.notice),
          body,
        });
      },
      (status, notice) =>
        writeConsolePage(exchange, this.services, { status, tab: "resources", notice, body: errorBody() }),
    );
  }

  private async tabBody(exchange: HttpExchange, query: PageQuery, admin: Authentication): Promise<string> {
    const tab = query.tab ?? "resources";
    if (tab === "resources") return resourcesTabBody(exchange, this.services, query, admin);
    const policies = await this.services.policies.list(policyFilterOf(query), admin);
    const list = renderPoliciesTab({ query, policies });
    const rules = renderStaticRulesSection(
      await staticRulesOf(this.services, admin),
      await formToken(exchange),
    );
    return `${list}\n${rules}`;
  }

  private async policyPage(exchange: HttpExchange, id: string): Promise<void> {
    const admin = consoleAdmin(exchange, this.services.policies, ["GET", "HEAD"]);
    await withErrorPage(
      exchange,
      async () => {
        checkConsoleId(id);
        const body = await policyBodyOrNothing(exchange, this.services, id, admin);
        if (body === undefined) throw new PlatformError("NOT_FOUND", "No such policy");
        const notice = noticeOf(parseQuery(NoticeQuery, exchange.query).notice);
        await writeConsolePage(exchange, this.services, { status: 200, tab: "policies", notice, body });
      },
      (status, notice) =>
        writeConsolePage(exchange, this.services, { status, tab: "policies", notice, body: errorBody() }),
    );
  }

  // The legacy list answers with the resources tab's address: one page, one set of filters.
  private async workbench(exchange: HttpExchange): Promise<void> {
    consoleAdmin(exchange, this.services.resources, ["GET", "HEAD"]);
    await withErrorPage(
      exchange,
      async () => {
        const query = parseQuery(ResourceQuery, exchange.query);
        exchange.redirect(tabHref("resources", resourceQueryString(query)), 302);
      },
      (status, notice) =>
        writeConsolePage(exchange, this.services, { status, tab: "resources", notice, body: errorBody() }),
    );
  }
}
