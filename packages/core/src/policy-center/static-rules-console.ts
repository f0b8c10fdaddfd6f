import { z } from "zod";
import type { Policy } from "../authz/policy/policy.js";
import type { StaticRuleService, StaticRuleView } from "../authz/static-rules/static-rule-service.js";
import type { StaticShadow } from "../authz/static-rules/static-rule-shadow.js";
import type { Authentication } from "../identity/authentication/authentication.js";
import type { HttpExchange } from "../web/http-exchange.js";
import {
  consoleAdmin,
  type PolicyCenterServices,
  withErrorPage,
  writeConsolePage,
  errorBody,
} from "./console-answers.js";
import { readForm } from "./console-input.js";
import { withNotice } from "./console-notices.js";
import { h, postForm } from "./html-parts.js";
import { POLICY_CENTER_PATH, tabHref } from "./policy-center-paths.js";

/** Where the policies tab's import form posts. */
export const STATIC_RULES_IMPORT_PATH = `${POLICY_CENTER_PATH}/static-rules/import`;

const ImportForm = z.strictObject({});

/** What a rule checks, in words (`roles ADMIN`, `permit all`). */
function ruleText(rule: StaticRuleView["rule"]): string {
  const values = (rule as { values?: readonly string[] }).values;
  return values === undefined ? rule.kind : `${rule.kind} ${values.join(", ")}`;
}

/**
 * The policies tab's section on static rules: the rules the platform's chains check in code before
 * any policy (a static rule always wins), whether each can be imported as a policy, what it was
 * imported as and which policies it shadows; a form imports every importable one (IMPORTED,
 * NOT_REQUIRED). Every value escaped.
 */
export function renderStaticRulesSection(rules: readonly StaticRuleView[], csrfInput: string): string {
  if (rules.length === 0) return "";
  const rows = rules
    .map((r) => {
      const state = r.importedAs
        ? `imported as <a href="${h(`${POLICY_CENTER_PATH}/policies/${r.importedAs}`)}"><code>${h(r.importedAs)}</code></a>`
        : r.importable
          ? "importable"
          : `not importable: ${h(r.reason ?? "")}`;
      const shadows = r.shadows.map((s) => h(s.name)).join(", ") || "-";
      return `<tr><td>${h(r.chain)}</td><td><code>${h(r.matcher)}</code></td><td>${h(ruleText(r.rule))}</td><td>${state}</td><td>${shadows}</td></tr>`;
    })
    .join("\n");
  const importable = rules.filter((r) => r.importable && !r.importedAs).length;
  const form =
    importable === 0
      ? `<p class="hint">Nothing left to import.</p>`
      : postForm({
          action: STATIC_RULES_IMPORT_PATH,
          csrfInput,
          button: `Import ${importable} static rule${importable === 1 ? "" : "s"} as policies`,
        });
  return `<section class="static-rules"><h2>Static rules</h2>
<p class="hint">Rules written in code are checked before any policy and always win. An imported policy
stays shadowed by its rule until that rule is removed from code.</p>
<table class="static-rules"><thead><tr><th>Chain</th><th>Matcher</th><th>Checks</th><th>Policy</th><th>Shadows</th></tr></thead>
<tbody>
${rows}
</tbody></table>
${form}
</section>`;
}

/** A policy page's warning when static rules shadow some of its targets (empty when none does). */
export function renderShadowNotice(shadows: readonly StaticShadow[]): string {
  if (shadows.length === 0) return "";
  const items = shadows
    .map(
      (s) =>
        `<li><code>${h(s.target.httpMethod)} ${h(s.target.targetIdentifier)}</code>: chain <code>${h(s.chain)}</code>, rule ${s.position + 1} (<code>${h(s.matcher)}</code>, ${h(ruleText(s.rule as StaticRuleView["rule"]))})</li>`,
    )
    .join("");
  return `<section class="shadowed" role="note"><h2>Shadowed by a static rule</h2>
<p>A rule in code decides these targets before any policy is asked: this policy takes effect for
them only once that rule is removed from code.</p>
<ul>${items}</ul></section>`;
}

/** The static shadows of a policy, or none when the platform has no static-rule service. */
export function shadowsOf(
  services: Pick<PolicyCenterServices, "staticRules">,
  policy: Policy,
): StaticShadow[] {
  return services.staticRules?.shadowOf(policy) ?? [];
}

/** The static rules for the policies tab, or none without a static-rule service. */
export async function staticRulesOf(
  services: Pick<PolicyCenterServices, "staticRules">,
  admin: Authentication,
): Promise<StaticRuleView[]> {
  return services.staticRules ? services.staticRules.list(admin) : [];
}

/**
 * `POST /admin/policy-center/static-rules/import`: ADMIN first, an empty form (CSRF is the
 * chain's), every importable static rule imported through the service (audited, idempotent), then
 * 303 to the policies tab with a notice.
 */
export async function importStaticRules(
  exchange: HttpExchange,
  services: PolicyCenterServices & { staticRules?: StaticRuleService | undefined },
): Promise<void> {
  const admin = consoleAdmin(exchange, services.policies, ["POST"]);
  await withErrorPage(
    exchange,
    async () => {
      await readForm(exchange, ImportForm);
      const result = services.staticRules ? await services.staticRules.import("all", admin) : undefined;
      const notice = result && result.created.length > 0 ? "imported" : "nothing-imported";
      exchange.redirect(withNotice(tabHref("policies"), notice), 303);
    },
    (status, notice) =>
      writeConsolePage(exchange, services, { status, tab: "policies", notice, body: errorBody() }),
  );
}
