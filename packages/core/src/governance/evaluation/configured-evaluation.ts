import { OfflineAnalyst } from "../../decisions/analyst/offline-analyst.js";
import {
  DECISION_ESCALATION_CONFIDENCE,
  DECISION_L1_TIMEOUT,
  DECISION_L2_TIMEOUT,
  DECISION_MODEL_API_KEY_ENV,
  DECISION_MODEL_BASE_URL,
  DECISION_MODEL_MAX_ANSWER_SIZE,
  DECISION_MODEL_MAX_RETRIES,
  DECISION_MODEL_NAME,
  DECISION_MODEL_PROVIDER,
  DECISION_MODEL_RETRY_BACKOFF,
  DECISIONS_PROPERTIES,
} from "../../decisions/decisions.properties.js";
import type { DecisionModel } from "../../decisions/model/decision-model.js";
import { OpenAiCompatibleModel } from "../../decisions/openai/openai-compatible-model.js";
import { type PlatformProperties, resolveProperties } from "../../kernel/properties.js";
import { loadBundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import { EVALUATION_DEFAULT_REPETITIONS, EVALUATION_PROPERTIES } from "./evaluation.properties.js";
import type { CaseResult, EvaluationRunRecord } from "./evaluation-run-record.js";
import { runBundleEvaluation } from "./run-bundle-evaluation.js";

/** What `platform bundles evaluate` asks for; the model and the engine come from the properties. */
export interface ConfiguredEvaluationOptions {
  readonly version: string;
  /** Default `platform.prompt.governance.evaluation.default-repetitions`. */
  readonly repetitions?: number | undefined;
  readonly families?: readonly string[] | undefined;
  /** A JSON properties file (flat or nested) of the decision model and evaluation properties. */
  readonly configFile?: string | undefined;
  /** Where properties and the API key variable are read; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** The bundle root; default the build's `prompt-bundles/`. */
  readonly root?: string | undefined;
  readonly onResult?: ((result: CaseResult) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * The DecisionModel the decisions plugin would register for these properties: the offline analyst,
 * or the OpenAI-compatible adapter with its key read from the variable the properties name (the key
 * is never a property and never printed).
 */
export function configuredDecisionModel(
  p: PlatformProperties,
  env: Readonly<Record<string, string | undefined>>,
): DecisionModel {
  if (p.get(DECISION_MODEL_PROVIDER) === "builtin") return new OfflineAnalyst();
  return new OpenAiCompatibleModel({
    baseUrl: p.get(DECISION_MODEL_BASE_URL),
    model: p.get(DECISION_MODEL_NAME),
    apiKey: env[p.get(DECISION_MODEL_API_KEY_ENV)],
    maxRetries: p.get(DECISION_MODEL_MAX_RETRIES),
    retryBackoffMs: p.get(DECISION_MODEL_RETRY_BACKOFF),
    maxAnswerBytes: p.get(DECISION_MODEL_MAX_ANSWER_SIZE),
  });
}

/**
 * Evaluates `version` as this machine's configuration would decide with it: reads the decision
 * model and evaluation properties (environment, then the file, then defaults), builds the model as
 * the decisions plugin does, and runs `runBundleEvaluation` over the build's catalog and test set.
 * A host without policy sets records no `policySetHash`.
 */
export async function evaluateConfiguredBundle(o: ConfiguredEvaluationOptions): Promise<EvaluationRunRecord> {
  const env = o.env ?? process.env;
  const properties = resolveProperties([...DECISIONS_PROPERTIES, ...EVALUATION_PROPERTIES], {
    env: { ...env },
    ...(o.configFile === undefined ? {} : { file: o.configFile }),
  });
  return runBundleEvaluation({
    catalog: loadBundleCatalog(o.root === undefined ? {} : { root: o.root }),
    version: o.version,
    model: configuredDecisionModel(properties, env),
    repetitions: o.repetitions ?? properties.get(EVALUATION_DEFAULT_REPETITIONS),
    families: o.families,
    escalationConfidence: properties.get(DECISION_ESCALATION_CONFIDENCE),
    timeouts: { L1: properties.get(DECISION_L1_TIMEOUT), L2: properties.get(DECISION_L2_TIMEOUT) },
    onResult: o.onResult,
    signal: o.signal,
  });
}
