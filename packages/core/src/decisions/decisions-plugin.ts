import { RESOURCES_NAMER } from "../authz/authz.properties.js";
import { ResourceNamer } from "../resources/resource-namer.js";
import { Clock } from "../kernel/clock.js";
import type { PlatformPlugin, PluginContext } from "../kernel/plugin.js";
import {
  DECISION_ESCALATION_CONFIDENCE,
  DECISION_L1_TIMEOUT,
  DECISION_L2_TIMEOUT,
  DECISION_MODEL_API_KEY_ENV,
  DECISION_MODEL_BASE_URL,
  DECISION_MODEL_NAME,
  DECISION_MODEL_MAX_ANSWER_SIZE,
  DECISIONS_PROPERTIES,
} from "./decisions.properties.js";
import { DecisionEngine } from "./engine/decision-engine.js";
import { EngineDecisionMaker } from "./engine/engine-decision-maker.js";
import { inProcessDecisionMaker } from "./engine/in-process-decision-maker.js";
import { LayeredDecisionEngine } from "./engine/layered-decision-engine.js";
import { configuredDecisionModel } from "./model/configured-decision-model.js";
import { DecisionModel } from "./model/decision-model.js";
import { OpenAiResourceNamer } from "./openai/openai-resource-namer.js";
import { DecisionMaker, FallbackDecisionMaker } from "./pipeline/decision-maker.js";
import { decisionsPipelinePlugin } from "./pipeline/decisions-pipeline-plugin.js";
// The module's error codes merge into PlatformErrorCodes (types); its plugin contributes the table.
import { DECISIONS_ERROR_CODES } from "./decisions-error-codes.js";

/** Options of the decisions plugin. */
export interface DecisionsPluginOptions {
  /**
   * Where the API key variable is read; default the platform's environment (`PlatformOptions.env`,
   * itself `process.env` by default). The key is never a property.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The decisions module as a plugin: registers the DecisionModel (default: the offline analyst, or
 * the OpenAI-compatible adapter when `platform.security.decision.model.provider` says so), the
 * DecisionEngine over it and the DecisionMaker over the engine, and includes the decision pipeline
 * (`decisionsPipelinePlugin`: events, queue, writes). Each is a default a host may replace. Needs
 * the identity plugin and zero trust (`authzPlugin`) unless `platform.security.decision.enabled` is
 * false.
 */
export function createDecisionsPlugin(options: DecisionsPluginOptions = {}): PlatformPlugin {
  return {
    id: "decisions",
    properties: DECISIONS_PROPERTIES,
    errorCodes: [DECISIONS_ERROR_CODES],
    includes: [decisionsPipelinePlugin],
    register(ctx) {
      const p = ctx.properties;
      ctx.registerDefault(DecisionModel, {
        useFactory: () => configuredDecisionModel(p, options.env ?? ctx.env),
      });
      registerResourceNamer(ctx, options);
      ctx.registerDefault(DecisionEngine, {
        useFactory: (c) =>
          new LayeredDecisionEngine({
            model: c.resolve(DecisionModel),
            clock: c.resolve(Clock),
            escalationConfidence: p.get(DECISION_ESCALATION_CONFIDENCE),
            timeouts: { L1: p.get(DECISION_L1_TIMEOUT), L2: p.get(DECISION_L2_TIMEOUT) },
          }),
      });
      ctx.registerDefault(DecisionMaker, {
        useFactory: (c) =>
          new EngineDecisionMaker({ engine: c.resolve(DecisionEngine), model: c.resolve(DecisionModel) }),
      });
      ctx.registerDefault(FallbackDecisionMaker, {
        useFactory: (c) =>
          inProcessDecisionMaker(c.resolve(Clock), {
            escalationConfidence: p.get(DECISION_ESCALATION_CONFIDENCE),
            timeouts: { L1: p.get(DECISION_L1_TIMEOUT), L2: p.get(DECISION_L2_TIMEOUT) },
          }),
      });
    },
  };
}

/**
 * With `platform.authz.resources.namer=openai` (the authz plugin's property), the ResourceNamer is the
 * OpenAI-compatible one on the decision model's endpoint settings (base URL, model, key variable,
 * answer-size cap), as an override so it replaces the offline default whatever the plugin order.
 */
function registerResourceNamer(ctx: PluginContext, options: DecisionsPluginOptions): void {
  const p = ctx.properties;
  if (!p.declares(RESOURCES_NAMER.key) || p.get(RESOURCES_NAMER) !== "openai") return;
  ctx.override(ResourceNamer, {
    useFactory: () =>
      new OpenAiResourceNamer({
        baseUrl: p.get(DECISION_MODEL_BASE_URL),
        model: p.get(DECISION_MODEL_NAME),
        apiKey: (options.env ?? ctx.env)[p.get(DECISION_MODEL_API_KEY_ENV)],
        maxAnswerBytes: p.get(DECISION_MODEL_MAX_ANSWER_SIZE),
      }),
  });
}

/** The decisions plugin with the API key read from the platform's environment. */
export const decisionsPlugin: PlatformPlugin = createDecisionsPlugin();
