import { Logger } from "../kernel/logger.js";
import { PlatformError } from "../kernel/platform-error.js";
import type { PlatformPlugin, PluginContext } from "../kernel/plugin.js";
import { RouteTable } from "../web/route-table.js";
import { REST_DOCS_PATH } from "../web/rest-docs.properties.js";
import { RESOURCES_NAMER } from "../authz/authz.properties.js";
import { MethodSecurity } from "../authz/method/method-security.js";
import { BatchedResourceNaming } from "./batched-resource-naming.js";
import { MethodResourceScanner } from "./method-resource-scanner.js";
import { OfflineResourceNamer } from "./offline-resource-namer.js";
import { ResourceNamer } from "./resource-namer.js";
import { RouteResourceScanner } from "./route-resource-scanner.js";
import { ResourceNaming, ResourceScanner } from "./scanned-resource.js";

/** The property the decisions plugin declares: present when the OpenAI-compatible namer can be built. */
const DECISION_MODEL_BASE_URL_KEY = "platform.security.decision.model.base-url";

/**
 * Registers the two resource scanners as members of the ResourceScanner family: `routes` (the host's
 * application routes of the one route table) and `methods` (the `@Protectable` methods of services
 * registered for method security). Both read their source at each scan, so routes and services added
 * before the sync runs are seen.
 */
export function registerResourceScanners(ctx: Pick<PluginContext, "registerMember" | "properties">): void {
  // The HTTP binding declares the page's path; without it, the spec's default.
  const restDocsPath = ctx.properties.declares(REST_DOCS_PATH.key)
    ? ctx.properties.get(REST_DOCS_PATH)
    : REST_DOCS_PATH.default;
  ctx.registerMember(ResourceScanner, {
    useFactory: (c) => new RouteResourceScanner({ routes: c.resolve(RouteTable), restDocsPath }),
  });
  ctx.registerMember(ResourceScanner, {
    useFactory: (c) => new MethodResourceScanner({ services: c.resolve(MethodSecurity) }),
  });
}

/**
 * Resource scanning and naming (issue 28): the two scanners (`registerResourceScanners`), the
 * ResourceNamer default (the offline namer; with `platform.authz.resources.namer=openai` the decisions
 * plugin overrides it with the OpenAI-compatible one, so the setting without that plugin stops
 * start-up) and the ResourceNaming default (`BatchedResourceNaming`: batches of 10, one retry, fallback
 * names). Each is a default a host may replace. The properties are the authz plugin's.
 */
export const resourceScanningPlugin: PlatformPlugin = {
  id: "authz.resources.scanning",
  register(ctx) {
    registerResourceScanners(ctx);
    const namer = ctx.properties.get(RESOURCES_NAMER);
    if (namer === "openai" && !ctx.properties.declares(DECISION_MODEL_BASE_URL_KEY)) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        "platform.authz.resources.namer=openai needs the decisions plugin (its model endpoint settings)",
        { details: { key: RESOURCES_NAMER.key, value: namer } },
      );
    }
    ctx.registerDefault(ResourceNamer, { useFactory: () => new OfflineResourceNamer() });
    ctx.registerDefault(ResourceNaming, {
      useFactory: (c) =>
        new BatchedResourceNaming({ namer: c.resolve(ResourceNamer), logger: c.resolve(Logger) }),
    });
  },
};
