import { OfflineAnalyst } from "../analyst/offline-analyst.js";
import {
  DECISION_MODEL_API_KEY_ENV,
  DECISION_MODEL_BASE_URL,
  DECISION_MODEL_MAX_ANSWER_SIZE,
  DECISION_MODEL_MAX_RETRIES,
  DECISION_MODEL_NAME,
  DECISION_MODEL_PROVIDER,
  DECISION_MODEL_RETRY_BACKOFF,
} from "../decisions.properties.js";
import { OpenAiCompatibleModel } from "../openai/openai-compatible-model.js";
import type { PlatformProperties } from "../../kernel/properties.js";
import type { DecisionModel } from "./decision-model.js";

/**
 * The DecisionModel the decisions plugin registers for these properties (and `platform bundles
 * evaluate` runs): the offline analyst,
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
