import type { DependencyContainer } from "tsyringe";
import { PolicyRepository } from "../authz/policy/policy-repository.js";
import { AuditSink } from "../kernel/audit-sink.js";
import { Clock } from "../kernel/clock.js";
import { ChangeCounters } from "../kernel/coordination/change-counters.js";
import { PeriodicPoll } from "../kernel/coordination/periodic-poll.js";
import { EventBus } from "../kernel/event-bus.js";
import { IdGenerator } from "../kernel/id-generator.js";
import { Logger } from "../kernel/logger.js";
import type { PlatformPlugin, PluginContext } from "../kernel/plugin.js";
import { PlatformError } from "../kernel/platform-error.js";
import { BundleCatalog } from "../prompts/bundle-catalog-token.js";
import { DefaultReleaseGovernance } from "./default-release-governance.js";
import { InMemoryReleaseEvidenceLedger } from "./evidence/in-memory-release-evidence-ledger.js";
import { ReleaseEvidenceLedger } from "./evidence/release-evidence-ledger.js";
import { RELEASE_ALERT_EVENT } from "./governance-audit.js";
import { GOVERNANCE_ERROR_CODES } from "./governance-error-codes.js";
import type { GovernanceServiceOptions } from "./governance-service-options.js";
import {
  EMERGENCY_APPROVAL_DEADLINE,
  EMERGENCY_DEADLINE_CHECK_INTERVAL,
  PROMPT_GOVERNANCE_ENABLED,
} from "./governance.properties.js";
import { policySetSourceOf } from "./policy-sets/policy-set-hash.js";
import { InMemoryReleaseRegistry } from "./registry/in-memory-release-registry.js";
import { ReleaseRegistry } from "./registry/release-registry.js";
import { ReleaseChangeNotifier } from "./release-change-notifier.js";
import { ReleaseChangeRecorder } from "./release-change-recorder.js";
import { EvidenceGate, EvidenceIntake, ReleaseGovernance } from "./release-governance.js";
import { EVALUATION_PROPERTIES } from "./evaluation/evaluation.properties.js";
import { evaluationThresholdsOf, LedgerEvidenceGate } from "./evidence/evidence-gate-service.js";
import { LedgerEvidenceIntake } from "./evidence/evidence-intake-service.js";
import { registerBuildReleases } from "./startup/startup-registration.js";
import { registerReleaseAdmin } from "./admin/register-release-admin.js";
import { SELECTION_PROPERTIES } from "./selection/selection.properties.js";
import { registerShadow } from "./shadow/register-shadow.js";
import { SHADOW_PROPERTIES } from "./shadow/shadow.properties.js";
import { registerSelection } from "./selection/register-selection.js";
import { ResourceFamilies } from "./selection/resource-family-index.js";

/** The change recorder over the container's registry, audit sink, counters, bus and logger. */
function recorderOf(c: DependencyContainer): ReleaseChangeRecorder {
  const logger = c.resolve(Logger);
  return new ReleaseChangeRecorder({
    registry: c.resolve(ReleaseRegistry),
    audit: c.resolve(AuditSink),
    logger,
    notifier: new ReleaseChangeNotifier({
      counters: c.resolve(ChangeCounters),
      events: c.resolve(EventBus),
      logger,
    }),
  });
}

/** A host has policy sets when the authorization module's PolicyRepository is registered. */
function policySetsOf(c: DependencyContainer) {
  return c.isRegistered(PolicyRepository, true) ? policySetSourceOf(c.resolve(PolicyRepository)) : undefined;
}

function serviceOptions(c: DependencyContainer, ctx: PluginContext): GovernanceServiceOptions {
  if (!c.isRegistered(EvidenceGate, true))
    throw new PlatformError("CONFIGURATION_INVALID", "prompt governance needs an EvidenceGate registered");
  return {
    registry: c.resolve(ReleaseRegistry),
    ledger: c.resolve(ReleaseEvidenceLedger),
    catalog: c.resolve(BundleCatalog),
    gate: c.resolve(EvidenceGate),
    clock: c.resolve(Clock),
    ids: c.resolve(IdGenerator),
    recorder: recorderOf(c),
    policySets: policySetsOf(c),
    approvalDeadlineMs: ctx.properties.get(EMERGENCY_APPROVAL_DEADLINE),
  };
}

/** Start-up registration (rule 4), then the deadline job; the job stops with the platform. */
function registerLifecycle(ctx: PluginContext): void {
  let job: PeriodicPoll | undefined;
  ctx.onStart("prompt-governance:register-releases", async (c) => {
    await registerBuildReleases({
      registry: c.resolve(ReleaseRegistry),
      catalog: c.resolve(BundleCatalog),
      clock: c.resolve(Clock),
      ids: c.resolve(IdGenerator),
      recorder: recorderOf(c),
      policySets: policySetsOf(c),
    });
    const governance = c.resolve(ReleaseGovernance);
    job = new PeriodicPoll({
      intervalMs: ctx.properties.get(EMERGENCY_DEADLINE_CHECK_INTERVAL),
      run: async () => {
        await governance.checkDeadlines();
      },
      logger: c.resolve(Logger),
      failure: "emergency-stop deadline check failed: open stops are marked at the next check that succeeds",
      recovered: "emergency-stop deadline check recovered",
    });
    job.start();
  });
  ctx.onStop("prompt-governance:deadline-job", async () => {
    await job?.stop();
  });
}

/**
 * Prompt governance (issue 30): the release registry, its gate, rollbacks and emergency stops.
 * Registers defaults for the ReleaseRegistry and ReleaseEvidenceLedger (in memory), the
 * EvidenceGate and EvidenceIntake over the ledger, and the ReleaseGovernance service; at start
 * registers the build's bundles (rule 4) and starts the job that marks emergency stops past their
 * deadline; serves the release API and the console's releases page (`registerReleaseAdmin`) when
 * there is a RouteTable. Needs the prompts plugin listed before it (its
 * BundleCatalog) and an EvidenceGate. With `platform.prompt.governance.enabled=false` it does
 * nothing at all: no port, no registration, no job.
 */
export const promptGovernancePlugin: PlatformPlugin = {
  id: "prompt-governance",
  properties: [
    PROMPT_GOVERNANCE_ENABLED,
    EMERGENCY_APPROVAL_DEADLINE,
    EMERGENCY_DEADLINE_CHECK_INTERVAL,
    ...EVALUATION_PROPERTIES,
    ...SELECTION_PROPERTIES,
    ...SHADOW_PROPERTIES,
  ],
  errorCodes: [GOVERNANCE_ERROR_CODES],
  register(ctx) {
    if (!ctx.properties.get(PROMPT_GOVERNANCE_ENABLED)) return;
    if (!ctx.container.isRegistered(BundleCatalog, true))
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        "promptGovernancePlugin needs promptsPlugin listed before it",
      );
    ctx.registerDefault(ReleaseRegistry, { useFactory: () => new InMemoryReleaseRegistry() });
    ctx.registerDefault(ReleaseEvidenceLedger, { useFactory: () => new InMemoryReleaseEvidenceLedger() });
    ctx.registerDefault(EvidenceGate, {
      useFactory: (c) =>
        new LedgerEvidenceGate({
          ledger: c.resolve(ReleaseEvidenceLedger),
          catalog: c.resolve(BundleCatalog),
          thresholds: evaluationThresholdsOf(ctx.properties),
        }),
    });
    ctx.registerDefault(EvidenceIntake, {
      useFactory: (c) =>
        new LedgerEvidenceIntake({
          ledger: c.resolve(ReleaseEvidenceLedger),
          catalog: c.resolve(BundleCatalog),
          audit: c.resolve(AuditSink),
          clock: c.resolve(Clock),
          policySets: policySetsOf(c),
        }),
    });
    ctx.registerDefault(ReleaseGovernance, {
      useFactory: (c) => {
        const events = c.resolve(EventBus);
        return new DefaultReleaseGovernance(serviceOptions(c, ctx), (payload) =>
          events.publish(RELEASE_ALERT_EVENT, payload),
        );
      },
    });
    registerLifecycle(ctx);
    registerReleaseAdmin(ctx);
    registerSelection(ctx);
    registerShadow(ctx, { familyOf: (c) => c.resolve(ResourceFamilies).familyOf });
  },
};
