import { BundleSelector } from "../../decisions/pipeline/bundle-selector.js";
import { Clock } from "../../kernel/clock.js";
import { InstanceIdentity } from "../../kernel/instance-identity.js";
import { Logger } from "../../kernel/logger.js";
import type { PluginContext } from "../../kernel/plugin.js";
import { PROMPT_BUNDLE_SELECTOR } from "../../prompts/prompts.properties.js";
import { ReleaseRegistry } from "../registry/release-registry.js";
import {
  HEARTBEAT_INTERVAL,
  HEARTBEAT_SILENT_AFTER,
  REGISTRY_CACHE_TTL,
  REGISTRY_POLL_INTERVAL,
} from "../selection/selection.properties.js";
import { ConvergenceReports, convergenceBound, StoreConvergenceReports } from "./convergence-report.js";
import { HeartbeatWriter } from "./heartbeat-writer.js";
import { InMemoryInstanceHeartbeatStore } from "./in-memory-instance-heartbeat-store.js";
import { InstanceHeartbeatStore } from "./instance-heartbeat-store.js";

/**
 * Convergence (issue 31), for `promptGovernancePlugin` to call from its `register`: the
 * InstanceHeartbeatStore (in memory unless a store plugin registered one), the ConvergenceReports
 * the admin API and the releases page read, and, when this instance decides (a BundleSelector is
 * registered), the heartbeat writer from start to stop.
 */
export function registerConvergence(
  ctx: Pick<PluginContext, "registerDefault" | "onStart" | "onStop" | "properties">,
): void {
  ctx.registerDefault(InstanceHeartbeatStore, { useFactory: () => new InMemoryInstanceHeartbeatStore() });
  const boundMs = convergenceBound({
    cacheTtlMs: ctx.properties.get(REGISTRY_CACHE_TTL),
    pollIntervalMs: ctx.properties.get(REGISTRY_POLL_INTERVAL),
    heartbeatIntervalMs: ctx.properties.get(HEARTBEAT_INTERVAL),
  });
  ctx.registerDefault(ConvergenceReports, {
    useFactory: (c) =>
      new StoreConvergenceReports({
        registry: c.resolve(ReleaseRegistry),
        heartbeats: c.resolve(InstanceHeartbeatStore),
        clock: c.resolve(Clock),
        boundMs,
        silentAfterMs: ctx.properties.get(HEARTBEAT_SILENT_AFTER),
      }),
  });
  let writer: HeartbeatWriter | undefined;
  ctx.onStart("prompt-governance:heartbeat", async (c) => {
    if (!c.isRegistered(BundleSelector, true) || !c.isRegistered(InstanceIdentity, true)) return;
    writer = new HeartbeatWriter({
      store: c.resolve(InstanceHeartbeatStore),
      identity: c.resolve(InstanceIdentity),
      selector: c.resolve(BundleSelector),
      clock: c.resolve(Clock),
      logger: c.resolve(Logger),
      intervalMs: ctx.properties.get(HEARTBEAT_INTERVAL),
      selectorKind: ctx.properties.get(PROMPT_BUNDLE_SELECTOR),
    });
    await writer.start();
  });
  ctx.onStop("prompt-governance:heartbeat", async () => {
    await writer?.stop();
  });
}
