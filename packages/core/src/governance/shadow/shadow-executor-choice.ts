import type { DependencyContainer } from "tsyringe";
import {
  DECISION_ESCALATION_CONFIDENCE,
  DECISION_L1_TIMEOUT,
  DECISION_L2_TIMEOUT,
} from "../../decisions/decisions.properties.js";
import { DecisionModel } from "../../decisions/model/decision-model.js";
import type { DecisionMaker } from "../../decisions/pipeline/decision-maker.js";
import type { Logger } from "../../kernel/logger.js";
import { PlatformProperties } from "../../kernel/properties.js";
import { BundleCatalog } from "../../prompts/bundle-catalog-token.js";
import { inThreadShadowExecutor, type ShadowExecutor } from "./shadow-executor.js";
import { ShadowWorkerExecutor } from "./shadow-worker-executor.js";
import { SHADOW_EXECUTOR } from "./shadow.properties.js";

/** The built-in analyst's name (the only model a shadow worker can run: it has no host code). */
const BUILT_IN_ANALYST = "builtin:offline-analyst/1";

/**
 * The shadow runs' executor: a worker thread when `shadow.executor` is WORKER and the configured
 * DecisionMaker is the decisions plugin's engine over the built-in analyst (the worker builds the same
 * engine from the same properties and manifests); the serving thread otherwise (a model behind HTTP,
 * a host's DecisionMaker, IN_THREAD).
 */
export function shadowExecutorOf(
  c: DependencyContainer,
  maker: DecisionMaker,
  instanceId: string,
  logger: Logger,
): ShadowExecutor {
  const inThread = inThreadShadowExecutor(maker);
  const p = c.resolve(PlatformProperties);
  if (p.get(SHADOW_EXECUTOR) !== "WORKER" || !runsTheBuiltInAnalyst(c, maker, p)) return inThread;
  return new ShadowWorkerExecutor({
    init: {
      bundleRoot: c.resolve(BundleCatalog).root,
      instanceId,
      engine: {
        escalationConfidence: p.get(DECISION_ESCALATION_CONFIDENCE),
        timeouts: { L1: p.get(DECISION_L1_TIMEOUT), L2: p.get(DECISION_L2_TIMEOUT) },
      },
    },
    fallback: inThread,
    logger,
  });
}

function runsTheBuiltInAnalyst(c: DependencyContainer, maker: DecisionMaker, p: PlatformProperties): boolean {
  if (maker.model.external || maker.model.id !== BUILT_IN_ANALYST) return false;
  // The engine's layer properties are the decisions plugin's: without it, the maker is a host's.
  if (!p.declares(DECISION_ESCALATION_CONFIDENCE.key) || !c.isRegistered(DecisionModel, true)) return false;
  const model = c.resolve(DecisionModel);
  return model.name === BUILT_IN_ANALYST && model.external === false;
}
