import type { DependencyContainer } from "tsyringe";
import { AUTHZ_ADMIN_FEATURE } from "../authz/admin/policy-admin-endpoints.js";
import {
  POLICY_COMBINING_ALGORITHM,
  POLICY_NO_MATCH_DECISION,
  POLICY_TIME_ZONE,
  resolveTimeZone,
} from "../authz/authz.properties.js";
import { ExpressionCompiler } from "../authz/expression/expression-compiler.js";
import { PolicyExpressionConverter } from "../authz/expression/policy-expression-converter.js";
import { PolicyAdministrationService } from "../authz/policy/policy-administration-service.js";
import { PolicyRetrievalPoint } from "../authz/policy/policy-retrieval-point.js";
import { type ChainRoute, pageRoutes, resourceRoutes } from "../identity/chain/chain-route.js";
import { AuditSink } from "../kernel/audit-sink.js";
import { Clock } from "../kernel/clock.js";
import { PlatformProperties } from "../kernel/properties.js";
import { ManagedResourceRepository } from "../resources/managed-resource-repository.js";
import { ConsoleSection } from "../web/console/console-page.js";
import {
  POLICY_AUTHORING_CONTRACTS as C,
  POLICY_AUTHORING_PATHS as P,
} from "./policy-authoring-contracts.js";
import {
  PolicyAuthoringEndpoints,
  type PolicyAuthoringEndpointsOptions,
} from "./policy-authoring-endpoints.js";
import { PolicyPreviewService } from "./policy-preview.js";
import { QuickCreateService } from "./quick-create.js";

/**
 * The authoring endpoints over a platform's services (the PAP, the PRP, resources, properties);
 * `writePage` frames their pages (default: the console shell, see PolicyAuthoringEndpointsOptions).
 */
export function policyAuthoringEndpoints(
  c: DependencyContainer,
  writePage?: PolicyAuthoringEndpointsOptions["writePage"],
): PolicyAuthoringEndpoints {
  const properties = c.resolve(PlatformProperties);
  const pap = c.resolve(PolicyAdministrationService);
  const resources = c.resolve(ManagedResourceRepository);
  const audit = c.resolve(AuditSink);
  return new PolicyAuthoringEndpoints({
    pap,
    resources,
    audit,
    quick: new QuickCreateService({ resources, pap, audit }),
    preview: new PolicyPreviewService({
      compiler: c.resolve(ExpressionCompiler),
      converter: c.resolve(PolicyExpressionConverter),
      prp: c.resolve(PolicyRetrievalPoint),
      resources,
      clock: c.resolve(Clock),
      algorithm: properties.get(POLICY_COMBINING_ALGORITHM),
      noMatchGranted: properties.get(POLICY_NO_MATCH_DECISION) === "ALLOW",
      timeZone: resolveTimeZone(properties.get(POLICY_TIME_ZONE)),
    }),
    sections: () => (c.isRegistered(ConsoleSection, true) ? c.resolveAll(ConsoleSection) : []),
    ...(writePage ? { writePage } : {}),
  });
}

/**
 * The Policy Center's authoring routes, ADMIN only (each checks it itself), for the console plugin
 * to mount on the administrators' chain: `POST /admin/policy-center/api/quick-create` (JSON),
 * `POST /admin/policy-center/api/preview` (JSON), `POST /admin/policy-center/create-policy` (the
 * manual form, urlencoded) and the legacy `GET /admin/policy-builder/from-resource?resourceId=`
 * (the create tab pre-filled, rendered in place). Each answers other methods 405. Mounted as an
 * `AuthzAdminRouteSource` member they join `authorizationAdminApi()` with its feature (the default);
 * a console plugin with a mount of its own passes that mount's feature.
 */
export function policyAuthoringRoutes(
  container: DependencyContainer,
  feature: string = AUTHZ_ADMIN_FEATURE,
): ChainRoute[] {
  return authoringRoutesOf(policyAuthoringEndpoints(container), feature);
}

/**
 * The authoring routes over given endpoints (see {@link policyAuthoringRoutes}). `feature` must be
 * the feature of the mount that serves them (a mount serves only its own feature's routes): the
 * authorization admin API's by default, as an `AuthzAdminRouteSource` member.
 */
export function authoringRoutesOf(
  endpoints: PolicyAuthoringEndpoints,
  feature = AUTHZ_ADMIN_FEATURE,
): ChainRoute[] {
  const common = { feature, access: "admin" } as const;
  return [
    ...resourceRoutes(
      { ...common, path: P.quickCreate, handler: (x) => endpoints.quickCreate(x) },
      {
        POST: {
          name: "policy-center.quick-create",
          description: "Grants roles and permissions on a managed resource as one ALLOW policy",
          contract: C.quickCreate,
        },
      },
      { name: "policy-center.quick-create.other" },
    ),
    ...resourceRoutes(
      { ...common, path: P.preview, handler: (x) => endpoints.previewJson(x) },
      {
        POST: {
          name: "policy-center.preview",
          description: "Previews a draft policy: expressions, the simulator's answer, impact and shadows",
          contract: C.preview,
        },
      },
      { name: "policy-center.preview.other" },
    ),
    ...resourceRoutes(
      { ...common, path: P.createPolicy, handler: (x) => endpoints.createPolicy(x) },
      {
        POST: {
          name: "policy-center.create-policy",
          description: "The manual form: preview, add a template's condition, save (303), or quick grant",
          contract: C.createPolicy,
        },
      },
      { name: "policy-center.create-policy.other" },
    ),
    ...pageRoutes({
      ...common,
      path: P.fromResource,
      name: "policy-center.from-resource",
      description: "Legacy policy builder: the create tab with the target pre-filled from a resource",
      handler: (x) => endpoints.fromResource(x),
      meta: { contract: C.fromResource },
    }),
  ];
}
