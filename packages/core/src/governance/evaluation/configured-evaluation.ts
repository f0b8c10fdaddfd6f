import {
  DECISION_ESCALATION_CONFIDENCE,
  DECISION_L1_TIMEOUT,
  DECISION_L2_TIMEOUT,
  DECISIONS_PROPERTIES,
} from "../../decisions/decisions.properties.js";
import { configuredDecisionModel } from "../../decisions/model/configured-decision-model.js";
import { resolveProperties } from "../../kernel/properties.js";
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
