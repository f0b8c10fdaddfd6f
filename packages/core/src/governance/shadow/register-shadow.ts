import type { DependencyContainer } from "tsyringe";
import { SealedEvidenceToken } from "../../decisions/evidence/sealed-evidence-service.js";
import { DecisionMaker } from "../../decisions/pipeline/decision-maker.js";
import { DECISION_TIMEOUT } from "../../decisions/pipeline/decision-pipeline.properties.js";
import { ShadowDecisions } from "../../decisions/pipeline/shadow-decisions.js";
import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock } from "../../kernel/clock.js";
import { IdGenerator } from "../../kernel/id-generator.js";
import { InstanceIdentity } from "../../kernel/instance-identity.js";
import { Logger } from "../../kernel/logger.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { PluginContext } from "../../kernel/plugin.js";
import { PlatformProperties } from "../../kernel/properties.js";
import { BundleCatalog } from "../../prompts/bundle-catalog-token.js";
import { ReleaseEvidenceLedger } from "../evidence/release-evidence-ledger.js";
import { ReleaseSnapshots, type ResourceFamilyOf } from "../selection/release-snapshots.js";
import { platformGlobalScopeResolver, RequestScopeResolver } from "../selection/request-scope-resolver.js";
import { SHADOW_DAILY_CALL_CAP, SHADOW_SAMPLE_PERCENT } from "../selection/selection.properties.js";
import { ShadowComparisonRecorder } from "./shadow-comparison-recorder.js";
import { ShadowReleaseLookup } from "./shadow-release-lookup.js";
import { ShadowRunner } from "./shadow-runner.js";
import { SHADOW_COMPARISON_BATCH_SIZE, SHADOW_REQUESTER_SHARE_PERCENT } from "./shadow.properties.js";
import { shadowExecutorOf } from "./shadow-executor-choice.js";

/** What the wiring is given that the container does not hold. */
export interface ShadowWiring {
  /** The request's resource family (absent: every comparison is counted under `event:<kind>`). */
  readonly familyOf?: ((c: DependencyContainer) => ResourceFamilyOf | undefined) | undefined;
}

/**
 * Registers the shadow runner as the ShadowDecisions default, only when
 * `shadow.sample-percent` is above 0 (the spec: the runner exists only when the property is set);
 * a host may replace it. It needs a ReleaseSnapshots (promptGovernancePlugin's run-time registry
 * view) and a DecisionMaker, else CONFIGURATION_INVALID when first resolved. At stop, after its runs
 * settled, partial comparison batches are recorded.
 */
export function registerShadow(ctx: PluginContext, wiring: ShadowWiring = {}): void {
  const percent = ctx.properties.get(SHADOW_SAMPLE_PERCENT);
  if (percent <= 0) return;
  let runner: ShadowRunner | undefined;
  ctx.registerDefault(ShadowDecisions, {
    useFactory: (c) => {
      runner = buildRunner(c, percent, wiring);
      return runner;
    },
  });
  ctx.onStop("prompt-governance:shadow", async () => {
    if (runner === undefined) return;
    await runner.idle();
    await runner.flush();
    await runner.close();
  });
}

function buildRunner(c: DependencyContainer, percent: number, wiring: ShadowWiring): ShadowRunner {
  const needs: [symbol | string, string][] = [
    [ReleaseSnapshots as symbol, "a ReleaseSnapshots (the registry's run-time view)"],
    [DecisionMaker as symbol, "a DecisionMaker (the configured model)"],
    [SealedEvidenceToken as symbol, "the sealed evidence (decisionsPipelinePlugin)"],
  ];
  for (const [token, what] of needs)
    if (!c.isRegistered(token, true))
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        `shadow runs (shadow.sample-percent > 0) need ${what}`,
      );
  const properties = c.resolve(PlatformProperties);
  const clock = c.resolve(Clock);
  const logger = c.resolve(Logger);
  const maker = c.resolve(DecisionMaker);
  const instanceId = c.resolve(InstanceIdentity).instanceId;
  return new ShadowRunner({
    samplePercent: percent,
    dailyCap: properties.get(SHADOW_DAILY_CALL_CAP),
    requesterSharePercent: properties.get(SHADOW_REQUESTER_SHARE_PERCENT),
    batchSize: properties.get(SHADOW_COMPARISON_BATCH_SIZE),
    timeoutMs: timeoutOf(properties),
    maker,
    executor: shadowExecutorOf(c, maker, instanceId, logger),
    lookup: new ShadowReleaseLookup({
      snapshots: c.resolve(ReleaseSnapshots),
      scopes: c.isRegistered(RequestScopeResolver, true)
        ? c.resolve(RequestScopeResolver)
        : platformGlobalScopeResolver,
      catalog: c.resolve(BundleCatalog),
    }),
    evidence: c.resolve(SealedEvidenceToken),
    recorder: new ShadowComparisonRecorder({
      ledger: c.resolve(ReleaseEvidenceLedger),
      clock,
      logger,
      instanceId,
    }),
    familyOf: wiring.familyOf?.(c),
    clock,
    ids: c.resolve(IdGenerator),
    audit: c.resolve(AuditSink),
    logger,
  });
}

/** The decision timeout, or its default where the decisions pipeline (which declares it) is not installed. */
function timeoutOf(properties: PlatformProperties): number {
  try {
    return properties.get(DECISION_TIMEOUT);
  } catch {
    return DECISION_TIMEOUT.default;
  }
}
