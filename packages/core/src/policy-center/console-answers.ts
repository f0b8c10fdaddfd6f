import type { StaticRuleService } from "../authz/static-rules/static-rule-service.js";
import type { PolicyAdministrationService } from "../authz/policy/policy-administration-service.js";
import { type Authentication, currentAuthentication } from "../identity/authentication/authentication.js";
import { csrfHiddenInput } from "../identity/csrf/csrf-html.js";
import { csrfToken } from "../identity/csrf/csrf-token.js";
import { isPlatformError, PlatformError } from "../kernel/platform-error.js";
import type { ManagedResourceService } from "../resources/managed-resource-service.js";
import { type ConsoleNotice, type ConsoleSection, renderConsolePage } from "../web/console/console-page.js";
import { errorCatalogOf } from "../web/exchange-error-catalog.js";
import type { HttpExchange } from "../web/http-exchange.js";
import { h, tabBar } from "./html-parts.js";
import { type PolicyCenterTab, tabHref } from "./policy-center-paths.js";
import type { PolicyHistoryReader } from "./policy-history-slot.js";

/** What the Policy Center's pages and posts work with. */
export interface PolicyCenterServices {
  readonly resources: ManagedResourceService;
  readonly policies: PolicyAdministrationService;
  /** The console navigation (the ConsoleSection family), read per page. */
  readonly sections: () => readonly ConsoleSection[];
  /** A policy's revisions, when a revision store is registered. */
  readonly history?: PolicyHistoryReader | undefined;
  /** The platform's static rules (listing, import, shadows), when the authorization plugin gave one. */
  readonly staticRules?: StaticRuleService | undefined;
  /** The create tab (`?tab=create[&resourceId=]`): the authoring surface's body, status and notice. */
  readonly createTab: (
    exchange: HttpExchange,
    resourceId: string | undefined,
  ) => Promise<{ status: number; body: string; notice?: ConsoleNotice | undefined }>;
}

/**
 * The signed-in administrator, checked before anything of the request is read: none is
 * AUTHENTICATION_REQUIRED (the chain sends a browser to sign in), a non-admin ACCESS_DENIED (403,
 * audited by the service), another method METHOD_NOT_ALLOWED. Every answer is `no-store`.
 */
export function consoleAdmin(
  exchange: HttpExchange,
  service: Pick<ManagedResourceService, "assertAdmin">,
  methods: readonly string[],
): Authentication {
  exchange.response.headers.set("cache-control", "no-store");
  const admin = currentAuthentication(exchange);
  if (!admin) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
  service.assertAdmin(admin, `console:${exchange.method}`);
  if (!methods.includes(exchange.method)) {
    exchange.response.headers.set("allow", methods.join(", "));
    throw new PlatformError("METHOD_NOT_ALLOWED", `Use ${methods.join(" or ")}`);
  }
  return admin;
}

/** The chain's CSRF hidden input for the page's forms (empty without CSRF). */
export function formToken(exchange: HttpExchange): Promise<string> {
  return csrfHiddenInput(exchange);
}

const TABS: readonly { id: PolicyCenterTab; label: string }[] = [
  { id: "resources", label: "Resources" },
  { id: "policies", label: "Policies" },
  { id: "create", label: "Create" },
];

/** Writes a Policy Center page through the console shell: the tab bar (when `tab` is given), then `body`. */
export async function writeConsolePage(
  exchange: HttpExchange,
  services: Pick<PolicyCenterServices, "sections">,
  page: {
    status: number;
    title?: string;
    tab?: PolicyCenterTab;
    notice?: ConsoleNotice | undefined;
    body: string;
    /** External scripts the page loads (the create tab's page script). */
    scripts?: readonly string[];
  },
): Promise<void> {
  const token = csrfToken(exchange);
  const tabs = page.tab
    ? tabBar(
        TABS.map((t) => ({ ...t, href: tabHref(t.id) })),
        page.tab,
      )
    : "";
  exchange.html(
    page.status,
    renderConsolePage({
      title: page.title ?? "Policy Center",
      sections: services.sections(),
      active: "policy-center",
      csrfToken: token ? await token.value() : undefined,
      notice: page.notice,
      body: `${tabs}\n${page.body}`,
      scripts: page.scripts,
    }),
  );
}

/** The codes a console page answers as a page with a notice; anything else is the chain's to answer. */
const PAGE_ERRORS = new Set([
  "VALIDATION_FAILED",
  "POLICY_EXPRESSION_INVALID",
  "NOT_FOUND",
  "CONFLICT",
  "ILLEGAL_STATE_TRANSITION",
]);

/**
 * Runs `work`; a refused input, an unknown id, a stale form or a move the state does not allow is
 * answered by `fallback` (a page at the error's status with its notice), everything else (sign-in,
 * access, media type, internal failures) is rethrown for the chain.
 */
export async function withErrorPage(
  exchange: HttpExchange,
  work: () => Promise<void>,
  fallback: (status: number, notice: ConsoleNotice, error: PlatformError) => Promise<void>,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!isPlatformError(error) || !PAGE_ERRORS.has(error.code)) throw error;
    const status = errorCatalogOf(exchange).statusOfError(error);
    await fallback(status, { kind: "error", text: noticeText(error) }, error);
  }
}

// The error's own words (written for clients), with the first issue of a refused input.
function noticeText(error: PlatformError): string {
  if (error.code === "CONFLICT") {
    return "Someone changed this since you opened it; nothing was saved. This is the current version: check it and try again.";
  }
  const issues = (error.details as { issues?: { path?: unknown; message?: unknown }[] } | undefined)?.issues;
  const first = Array.isArray(issues) ? issues[0] : undefined;
  const issue =
    first && typeof first.message === "string" && !error.message.includes(first.message)
      ? ` (${String(first.path ?? "")}: ${first.message})`
      : "";
  return `${error.message}${issue}`.slice(0, 600);
}

/** A page that only says what went wrong, with a way back. */
export function errorBody(): string {
  return `<p><a href="${h(tabHref("resources"))}">Back to the Policy Center</a></p>`;
}
