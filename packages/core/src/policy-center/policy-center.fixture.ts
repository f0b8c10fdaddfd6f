import { BOB, ROOT } from "../authz/policy/policy.fixture.js";
import { type Authentication, setCurrentAuthentication } from "../identity/authentication/authentication.js";
import { serveRoutes } from "../identity/chain/chain-routes.test-support.js";
import { createErrorCatalog } from "../kernel/error-catalog.js";
import { KERNEL_ERROR_CODES } from "../kernel/kernel-error-codes.js";
import { IDENTITY_ERROR_CODES } from "../identity/identity-error-codes.js";
import { AUTHZ_ERROR_CODES } from "../authz/authz-error-codes.js";
import { WEB_ERROR_CODES } from "../web/web-error-codes.js";
import { errorResponse } from "../web/error-response.js";
import { attachErrorCatalog } from "../web/exchange-error-catalog.js";
import { HttpExchange } from "../web/http-exchange.js";
import { authoringSetup } from "./policy-authoring.fixture.js";
import type { ListedChain } from "../authz/static-rules/static-rule-listing.js";
import { ChainStaticRuleService } from "../authz/static-rules/static-rule-service.js";
import type { PolicyHistoryReader } from "./policy-history-slot.js";
import { PolicyCenterEndpoints } from "./policy-center-endpoints.js";
import { POLICY_CENTER_SECTION } from "./policy-center-paths.js";

export { BOB, ROOT };

const CATALOG = createErrorCatalog(
  [KERNEL_ERROR_CODES, WEB_ERROR_CODES, IDENTITY_ERROR_CODES, AUTHZ_ERROR_CODES].map((table) => ({
    source: "fixture",
    table,
  })),
);

/** Test fixture: the Policy Center's routes over the in-memory resource and policy services. */
export function policyCenterSetup(
  o: { history?: PolicyHistoryReader; chains?: () => readonly ListedChain[] } = {},
) {
  // The authoring setup holds the resources setup (PAP, resource store) and the create tab's endpoints.
  const s = authoringSetup();
  const endpoints = new PolicyCenterEndpoints({
    resources: s.service,
    policies: s.pap,
    sections: () => [POLICY_CENTER_SECTION],
    history: o.history,
    createTab: (x, resourceId) => s.endpoints.createTab(x, resourceId),
    staticRules: o.chains
      ? new ChainStaticRuleService({
          chains: o.chains,
          service: s.pap,
          repository: s.policies,
          audit: s.audit,
        })
      : undefined,
  });
  const routes = endpoints.routes();
  /** Serves one request as a chain would (a thrown PlatformError becomes its JSON answer). */
  const call = async (init: {
    method?: string;
    url: string;
    form?: Record<string, string>;
    raw?: string;
    contentType?: string;
    as?: Authentication | undefined;
  }) => {
    const body = init.raw ?? (init.form ? new URLSearchParams(init.form).toString() : "");
    const contentType = init.contentType ?? (body === "" ? undefined : "application/x-www-form-urlencoded");
    const x = new HttpExchange({
      method: init.method ?? (init.form || init.raw !== undefined ? "POST" : "GET"),
      url: init.url,
      headers: { accept: "text/html", "content-type": contentType },
      remoteAddress: "203.0.113.7",
      readBody: async () => body,
    });
    attachErrorCatalog(x, CATALOG);
    if (init.as !== undefined) setCurrentAuthentication(x, init.as);
    let fellThrough = false;
    try {
      await serveRoutes(routes, x, async () => {
        fellThrough = true;
      });
    } catch (error) {
      const answer = errorResponse(error, "test", CATALOG);
      if (answer.unexpected) throw error;
      x.json(answer.status, answer.body);
    }
    const res = x.response;
    return {
      status: res.status,
      location: res.headers.get("location"),
      html: typeof res.body === "string" ? res.body : "",
      code:
        typeof res.body === "object" && res.body !== null ? (res.body as { code?: string }).code : undefined,
      headers: res.headers,
      fellThrough,
    };
  };
  /** As ROOT (an administrator) unless `as` says otherwise. */
  const admin = (init: Parameters<typeof call>[0]) => call({ as: ROOT, ...init });
  return { ...s, endpoints, routes, call, admin };
}
