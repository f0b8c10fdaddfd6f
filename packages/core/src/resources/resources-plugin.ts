import type { DependencyContainer } from "tsyringe";
import { AuditSink } from "../kernel/audit-sink.js";
import { Clock } from "../kernel/clock.js";
import { IdGenerator } from "../kernel/id-generator.js";
import { Logger } from "../kernel/logger.js";
import type { PlatformPlugin } from "../kernel/plugin.js";
import { PlatformError } from "../kernel/platform-error.js";
import { AuthzAdminRouteSource } from "../authz/admin/authz-admin-api.js";
import { POLICY_REFRESH_INTERVAL } from "../authz/authz.properties.js";
import { ResourceAdminEndpoints } from "./resource-admin-endpoints.js";
import { resourceScanningPlugin } from "./resource-scanning-plugin.js";
import { PolicyChangeListener } from "../authz/policy/policy-change-listener.js";
import { PolicyRepository } from "../authz/policy/policy-repository.js";
import { InMemoryManagedResourceRepository } from "./in-memory-managed-resource-repository.js";
import { ManagedResourceRepository } from "./managed-resource-repository.js";
import { ManagedResourceService } from "./managed-resource-service.js";
import { nameResources } from "./resource-naming-run.js";
import { ResourcePolicyReconciler } from "./resource-policy-reconciler.js";
import { ResourceSync } from "./resource-sync.js";
import { ResourceNaming, ResourceScanner } from "./scanned-resource.js";

/**
 * Managed resources: the store (in memory by default), the lifecycle service behind
 * `/admin/api/resources`, the reconciliation that follows policy changes (a `PolicyChangeListener`
 * member), and the start-up sync that runs every `ResourceScanner` member after the policies load,
 * then names new resources through `ResourceNaming` (when one is registered) in the background
 * (`stop()` waits for it at most 5 s).
 * Its admin API joins `authorizationAdminApi()` (an AuthzAdminRouteSource member). It includes
 * `resourceScanningPlugin` (the scanners and the naming service) and needs `authzPlugin` before it
 * (its policies): without it, start-up stops with CONFIGURATION_INVALID.
 */
export const resourcesPlugin: PlatformPlugin = {
  id: "resources",
  includes: [resourceScanningPlugin],
  register(ctx) {
    if (!ctx.properties.declares(POLICY_REFRESH_INTERVAL.key)) {
      throw new PlatformError("CONFIGURATION_INVALID", "resourcesPlugin needs authzPlugin listed before it");
    }
    ctx.registerMember(AuthzAdminRouteSource, {
      useValue: {
        id: "resources",
        routes: (c) => new ResourceAdminEndpoints({ service: c.resolve(ManagedResourceService) }).routes(),
      },
    });
    ctx.registerDefault(ManagedResourceRepository, {
      useFactory: (c) =>
        new InMemoryManagedResourceRepository({ clock: c.resolve(Clock), ids: c.resolve(IdGenerator) }),
    });
    ctx.registerDefault(ResourcePolicyReconciler, {
      useFactory: (c) =>
        new ResourcePolicyReconciler({
          repository: c.resolve(ManagedResourceRepository),
          policies: c.resolve(PolicyRepository),
          audit: c.resolve(AuditSink),
          logger: c.resolve(Logger),
        }),
    });
    ctx.registerDefault(ManagedResourceService, {
      useFactory: (c) =>
        new ManagedResourceService({
          repository: c.resolve(ManagedResourceRepository),
          policies: c.resolve(PolicyRepository),
          reconciler: c.resolve(ResourcePolicyReconciler),
          audit: c.resolve(AuditSink),
          clock: c.resolve(Clock),
          ids: c.resolve(IdGenerator),
        }),
    });
    ctx.registerMember(PolicyChangeListener, {
      useFactory: (c) => ({
        id: "resources-reconcile",
        onPoliciesChanged: (change) => c.resolve(ResourcePolicyReconciler).onPolicyChanged(change),
      }),
    });
    let naming: Promise<unknown> | undefined;
    ctx.onStart("resources-sync", async (c) => {
      await syncAtStart(c);
      naming = nameInBackground(c);
    });
    // A slow namer (a model, up to its 120 s budget) must not hold shutdown: wait a little, then go.
    ctx.onStop("resources-naming", async () => {
      if (naming) await settledWithin(naming, NAMING_STOP_WAIT_MS);
    });
  },
};

/** How long `stop()` waits for a background naming still running. */
const NAMING_STOP_WAIT_MS = 5_000;

function settledWithin(work: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const elapsed = new Promise((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref?.();
  });
  return Promise.race([work, elapsed]).finally(() => clearTimeout(timer));
}

// Resource management is not on the request path: a failing sync is logged, and start-up goes on.
async function syncAtStart(c: DependencyContainer): Promise<void> {
  const logger = c.resolve(Logger);
  try {
    await new ResourceSync({
      repository: c.resolve(ManagedResourceRepository),
      scanners: () => (c.isRegistered(ResourceScanner, true) ? c.resolveAll(ResourceScanner) : []),
      audit: c.resolve(AuditSink),
      clock: c.resolve(Clock),
      logger,
    }).run();
    await c.resolve(ResourcePolicyReconciler).reconcileAll();
  } catch (error) {
    logger.error("managed-resource sync failed", { error: String(error) });
  }
}

// Never awaited by start-up; `stop()` waits for it. Never rejects.
function nameInBackground(c: DependencyContainer): Promise<unknown> {
  if (!c.isRegistered(ResourceNaming, true)) return Promise.resolve();
  const logger = c.resolve(Logger);
  return nameResources({
    repository: c.resolve(ManagedResourceRepository),
    naming: c.resolve(ResourceNaming),
    logger,
  })
    .then((named) => logger.info("managed resources named", { named }))
    .catch((error: unknown) => logger.error("resource naming failed", { error: String(error) }));
}
