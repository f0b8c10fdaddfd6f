import type { DependencyContainer } from "tsyringe";
import { ENTERPRISE_ENABLED } from "../decisions/evidence/sealed-evidence.properties.js";
import { InspectionOutcomes } from "../decisions/evidence/inspection-outcomes.js";
import { SealedEvidenceStore } from "../decisions/evidence/sealed-evidence-store.js";
import { SealedEvidenceToken } from "../decisions/evidence/sealed-evidence-service.js";
import { DecisionHistoryStore } from "../decisions/history/decision-history-store.js";
import { ReleaseRegistry } from "../governance/registry/release-registry.js";
import { ReleaseGovernance } from "../governance/release-governance.js";
import { UserRepository } from "../identity/users/user-repository.js";
import { AuditSink } from "../kernel/audit-sink.js";
import { Clock } from "../kernel/clock.js";
import { DistributedLock } from "../kernel/coordination/distributed-lock.js";
import { IdGenerator } from "../kernel/id-generator.js";
import { InstanceIdentity } from "../kernel/instance-identity.js";
import { Logger } from "../kernel/logger.js";
import type { PlatformPlugin, PluginContext } from "../kernel/plugin.js";
import { PlatformError } from "../kernel/platform-error.js";
import { BundleCatalog } from "../prompts/bundle-catalog-token.js";
import { RouteTable } from "../web/route-table.js";
import { InspectionAdminEndpoints } from "./admin/inspection-admin-endpoints.js";
import { CanaryHealth } from "./canary/canary-health.js";
import { registerInspectionConsole } from "./console/register-inspection-console.js";
import { dictionaryVersionOf } from "./inspect-package.js";
import {
  PROMPT_INSPECTION_PROPERTIES,
  type PromptInspectionSettings,
  promptInspectionSettings,
} from "./inspection.properties.js";
import { PromptFactSourceVerifier } from "./prompt-fact-source-verifier.js";
import { InMemoryInspectionResultStore } from "./results/in-memory-inspection-result-store.js";
import { InspectionResultStore } from "./results/inspection-result-store.js";
import { StoreFactSourceVerifier } from "./sample/store-fact-source-verifier.js";
import { InspectionScheduler } from "./service/inspection-scheduler.js";
import { InspectionRound, InspectionRoundToken } from "./service/inspection-round.js";
import { PromptInspection, PromptInspectionToken } from "./service/prompt-inspection.js";
import { ReinspectionJobs, ReinspectionJobsToken } from "./service/reinspection-jobs.js";

/** How the inspection plugin is made. */
export interface PromptInspectionPluginOptions {
  /**
   * Register the sample PromptFactSourceVerifier over the platform's own user store and decision
   * history as the default fact source (the demo does; a host registers its own verifier instead).
   */
  readonly sampleFactSource?: boolean;
}

/**
 * The prompt inspector at run time (issue 32): the InspectionResultStore (in memory unless a store
 * plugin registered one) and the InspectionOutcomes retention reads from it, the inspection service,
 * the automatic round under the DistributedLock on the scheduler's timer, reinspection jobs, canary
 * health, and the prompt-inspection admin API. OSS only: with `platform.enterprise.enabled` or
 * `platform.prompt-inspection.enabled=false` it registers nothing. Needs the decisions plugin (its
 * sealed evidence and bundle catalog); prompt governance is optional (without it BUNDLE_TRACE is
 * unverifiable and canary health is off).
 */
export function createPromptInspectionPlugin(options: PromptInspectionPluginOptions = {}): PlatformPlugin {
  return {
    id: "prompt-inspection",
    properties: PROMPT_INSPECTION_PROPERTIES,
    register(ctx) {
      const settings = promptInspectionSettings(ctx.properties);
      const enterprise =
        ctx.properties.declares(ENTERPRISE_ENABLED.key) && ctx.properties.get(ENTERPRISE_ENABLED);
      if (!settings.enabled || enterprise) return;
      ctx.registerDefault(InspectionResultStore, { useFactory: () => new InMemoryInspectionResultStore() });
      ctx.registerDefault(InspectionOutcomes, {
        useFactory: (c) => outcomesOf(c.resolve(InspectionResultStore)),
      });
      if (options.sampleFactSource)
        ctx.registerDefault(PromptFactSourceVerifier, {
          useFactory: (c) =>
            new StoreFactSourceVerifier({
              users: c.resolve(UserRepository),
              history: c.resolve(DecisionHistoryStore),
            }),
        });
      ctx.registerDefault(PromptInspectionToken, { useFactory: (c) => inspectionOf(c) });
      registerRuntime(ctx, settings);
      registerInspectionConsole(ctx);
    },
  };
}

/** The port registered under `token`, if any. */
const optional = <T>(c: DependencyContainer, token: symbol) =>
  c.isRegistered(token, true) ? c.resolve<T>(token) : undefined;

function inspectionOf(c: DependencyContainer): PromptInspection {
  if (!c.isRegistered(SealedEvidenceToken, true) || !c.isRegistered(BundleCatalog, true))
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      "the prompt inspection needs decisionsPlugin (its sealed evidence and bundle catalog) listed too",
    );
  return new PromptInspection({
    evidence: c.resolve(SealedEvidenceToken),
    results: c.resolve(InspectionResultStore),
    catalog: c.resolve(BundleCatalog),
    registry: optional(c, ReleaseRegistry as symbol),
    verifier: optional(c, PromptFactSourceVerifier as symbol),
    clock: c.resolve(Clock),
  });
}

/** Retention's narrow read: NOTHING_WRONG is CLEAN. */
function outcomesOf(results: InspectionResultStore): InspectionOutcomes {
  return {
    async latestInspectionOutcome(packageId) {
      const outcome = await results.latestInspectionOutcome(packageId);
      return outcome === undefined ? undefined : outcome === "NOTHING_WRONG" ? "CLEAN" : "FINDINGS";
    },
  };
}

function registerRuntime(ctx: PluginContext, settings: PromptInspectionSettings): void {
  ctx.registerDefault(ReinspectionJobsToken, {
    useFactory: (c) =>
      new ReinspectionJobs({
        store: c.resolve(SealedEvidenceStore),
        now: () => c.resolve(Clock).now(),
        newId: () => `RIJ-${c.resolve(IdGenerator).id()}`,
        instanceId: c.resolve(InstanceIdentity).instanceId,
      }),
  });
  ctx.registerDefault(InspectionRoundToken, { useFactory: (c) => roundOf(c, settings) });
  let scheduler: InspectionScheduler | undefined;
  ctx.onStart("prompt-inspection", (c) => {
    if (c.isRegistered(RouteTable, true)) {
      const endpoints = new InspectionAdminEndpoints({
        inspection: c.resolve(PromptInspectionToken),
        results: c.resolve(InspectionResultStore),
        evidence: c.resolve(SealedEvidenceToken),
        jobs: c.resolve(ReinspectionJobsToken),
        dictionaryVersion: dictionaryVersionOf(c.resolve(BundleCatalog)),
        clock: c.resolve(Clock),
        audit: c.resolve(AuditSink),
      });
      for (const route of endpoints.routes()) c.resolve(RouteTable).add(route);
    }
    scheduler = new InspectionScheduler({
      round: c.resolve(InspectionRoundToken),
      settings,
      logger: c.resolve(Logger),
    });
    scheduler.start();
  });
  ctx.onStop("prompt-inspection", async () => {
    await scheduler?.stop();
    scheduler = undefined;
  });
}

function roundOf(c: DependencyContainer, settings: PromptInspectionSettings): InspectionRound {
  const canary = canaryOf(c, settings);
  return new InspectionRound({
    inspection: c.resolve(PromptInspectionToken),
    store: c.resolve(SealedEvidenceStore),
    results: c.resolve(InspectionResultStore),
    jobs: c.resolve(ReinspectionJobsToken),
    lock: c.resolve(DistributedLock),
    owner: `${c.resolve(InstanceIdentity).instanceId}:inspection`,
    batchSize: settings.batchSize,
    samplePercent: settings.samplePercent,
    now: () => c.resolve(Clock).now(),
    after: canary && (async () => void (await canary.check())),
  });
}

function canaryOf(c: DependencyContainer, settings: PromptInspectionSettings): CanaryHealth | undefined {
  if (!settings.canaryHealth.enabled || !c.isRegistered(ReleaseGovernance, true)) return undefined;
  return new CanaryHealth({
    governance: c.resolve(ReleaseGovernance),
    results: c.resolve(InspectionResultStore),
    settings: settings.canaryHealth,
    audit: c.resolve(AuditSink),
    logger: c.resolve(Logger),
  });
}
