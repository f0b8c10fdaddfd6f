import type { DependencyContainer } from "tsyringe";
import { BundleSelector } from "../../decisions/pipeline/bundle-selector.js";
import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock } from "../../kernel/clock.js";
import { ChangeCounters } from "../../kernel/coordination/change-counters.js";
import { EventBus } from "../../kernel/event-bus.js";
import { Logger } from "../../kernel/logger.js";
import type { PluginContext } from "../../kernel/plugin.js";
import { BundleCatalog } from "../../prompts/bundle-catalog-token.js";
import { PROMPT_BUNDLE_SELECTOR } from "../../prompts/prompts.properties.js";
import { ManagedResourceRepository } from "../../resources/managed-resource-repository.js";
import { RouteTable } from "../../web/route-table.js";
import { ReleaseRegistry } from "../registry/release-registry.js";
import { ReleaseCache } from "./release-cache.js";
import { ReleaseSnapshots } from "./release-snapshots.js";
import { RegistryBundleSelector } from "./registry-bundle-selector.js";
import { platformGlobalScopeResolver, RequestScopeResolver } from "./request-scope-resolver.js";
import { ResourceFamilies, ResourceFamilyIndex } from "./resource-family-index.js";
import { REGISTRY_CACHE_TTL, REGISTRY_POLL_INTERVAL, SHADOW_SAMPLE_PERCENT } from "./selection.properties.js";

/**
 * Run-time selection's part of promptGovernancePlugin: registers the RequestScopeResolver default
 * (PLATFORM_GLOBAL, no tenant), the ResourceFamilies index and the ReleaseSnapshots default (the
 * ReleaseCache, whichever selector runs: shadow runs read it too); with
 * `prompt-bundle.selector=REGISTRY` overrides the BundleSelector with the RegistryBundleSelector. At
 * start the cache begins its first read (start-up does not wait for it) and its timers; they stop
 * with the platform. A host that replaced ReleaseSnapshots keeps its own lifecycle.
 */
export function registerSelection(ctx: PluginContext): void {
  let cache: ReleaseCache | undefined;
  ctx.registerDefault(RequestScopeResolver, { useValue: platformGlobalScopeResolver });
  ctx.registerDefault(ResourceFamilies, {
    useFactory: (c) =>
      new ResourceFamilyIndex({
        routes: c.isRegistered(RouteTable, true) ? c.resolve(RouteTable) : undefined,
        resources: c.isRegistered(ManagedResourceRepository, true)
          ? c.resolve(ManagedResourceRepository)
          : undefined,
        logger: c.resolve(Logger),
        shadowRuns: ctx.properties.get(SHADOW_SAMPLE_PERCENT) > 0,
      }),
  });
  ctx.registerDefault(ReleaseSnapshots, {
    useFactory: (c) => {
      cache = releaseCacheOf(c, ctx);
      return cache;
    },
  });
  if (ctx.properties.get(PROMPT_BUNDLE_SELECTOR) === "REGISTRY")
    ctx.override(BundleSelector, {
      useFactory: (c) =>
        new RegistryBundleSelector({
          catalog: c.resolve(BundleCatalog),
          snapshots: c.resolve(ReleaseSnapshots),
          resolver: c.resolve(RequestScopeResolver),
          familyOf: c.resolve(ResourceFamilies).familyOf,
          audit: c.resolve(AuditSink),
          logger: c.resolve(Logger),
        }),
    });
  ctx.onStart("prompt-governance:release-cache", (c) => {
    c.resolve(ReleaseSnapshots);
    cache?.start();
  });
  ctx.onStop("prompt-governance:release-cache", async () => {
    await cache?.stop();
  });
}

function releaseCacheOf(c: DependencyContainer, ctx: PluginContext): ReleaseCache {
  const families = c.resolve(ResourceFamilies);
  return new ReleaseCache({
    registry: c.resolve(ReleaseRegistry),
    counters: c.resolve(ChangeCounters),
    events: c.resolve(EventBus),
    clock: c.resolve(Clock),
    logger: c.resolve(Logger),
    ttlMs: ctx.properties.get(REGISTRY_CACHE_TTL),
    pollIntervalMs: ctx.properties.get(REGISTRY_POLL_INTERVAL),
    onRead: (snapshot) => families.refresh(snapshot),
  });
}
