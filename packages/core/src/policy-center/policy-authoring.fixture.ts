import { ExpressionCompiler } from "../authz/expression/expression-compiler.js";
import { PolicyExpressionConverter } from "../authz/expression/policy-expression-converter.js";
import type { CombiningAlgorithm } from "../authz/pdp/combining-algorithm.js";
import { ROOT, request, send } from "../authz/policy/policy.fixture.js";
import { DefaultPolicyRetrievalPoint } from "../authz/policy/policy-retrieval-point.js";
import type { Authentication } from "../identity/authentication/authentication.js";
import { setCsrfToken } from "../identity/csrf/csrf-token.js";
import type { ManagedResource } from "../resources/managed-resource.js";
import { resourcesSetup, urlResource } from "../resources/resources.fixture.js";
import {
  PolicyAuthoringEndpoints,
  type PolicyAuthoringEndpointsOptions,
} from "./policy-authoring-endpoints.js";
import { authoringRoutesOf } from "./policy-authoring-routes.js";
import { PolicyPreviewService } from "./policy-preview.js";
import { QuickCreateService } from "./quick-create.js";

/** Test fixture: the CSRF token the fixture's form posts carry (the chain's filter is not in these tests). */
export const TEST_CSRF = "csrf-token-<&>";

/**
 * Test fixture: the resources setup (PAP, resource store, reconciler as a policy listener) with the
 * preview and quick-grant services and the authoring endpoints over them; `defined(path, method)`
 * seeds a URL resource and defines it as a permission (PERMISSION_CREATED).
 */
export function authoringSetup(o: { algorithm?: CombiningAlgorithm } = {}) {
  const s = resourcesSetup();
  const preview = new PolicyPreviewService({
    compiler: new ExpressionCompiler(),
    converter: new PolicyExpressionConverter(),
    prp: new DefaultPolicyRetrievalPoint({ repository: s.policies }),
    resources: s.repository,
    clock: s.clock,
    algorithm: o.algorithm ?? "FIRST_APPLICABLE",
    noMatchGranted: true,
    timeZone: "UTC",
  });
  const quick = new QuickCreateService({ resources: s.repository, pap: s.pap, audit: s.audit });
  const endpointOptions: PolicyAuthoringEndpointsOptions = {
    pap: s.pap,
    preview,
    quick,
    resources: s.repository,
    audit: s.audit,
    sections: () => [
      { id: "policy-center", label: "Policy Center", href: "/admin/policy-center", order: 10 },
    ],
  };
  const endpoints = new PolicyAuthoringEndpoints(endpointOptions);
  const routes = { routes: () => authoringRoutesOf(endpoints) };
  const defined = async (
    path: string,
    method: "GET" | "POST" | "DELETE" | "ANY" = "GET",
    friendlyName = "Orders",
  ): Promise<ManagedResource> => {
    const r = await s.seed(urlResource(path, method));
    return (await s.service.define(r.id, { friendlyName }, ROOT)).resource;
  };
  return { ...s, preview, quick, endpointOptions, endpoints, routes, defined };
}

/** Test fixture: an urlencoded form post (as a browser sends it) to `url`, signed in as `as`, with the CSRF token set. */
export function formPost(url: string, fields: Record<string, string> | string, as?: Authentication) {
  const raw = typeof fields === "string" ? fields : new URLSearchParams(fields).toString();
  const x = request({
    method: "POST",
    url,
    raw,
    contentType: "application/x-www-form-urlencoded",
    ...(as ? { as } : {}),
  });
  setCsrfToken(x, { headerName: "X-CSRF-TOKEN", parameterName: "_csrf", value: async () => TEST_CSRF });
  return x;
}

/** Test fixture: serves one exchange on the authoring routes; `html` is the body when it is a page. */
export async function serve(setup: ReturnType<typeof authoringSetup>, x: ReturnType<typeof request>) {
  const answer = await send(setup.routes, x);
  const body = x.response.body;
  return {
    ...answer,
    html: typeof body === "string" ? body : "",
    location: x.response.headers.get("location"),
  };
}
