import { renderV20User } from "../layouts/v20/render-v20.js";
import { renderV20System } from "../layouts/v20/v20-system-text.js";
import { type Dictionary, V20_DICTIONARY } from "../layouts/v20/v20-dictionary.js";
import { countSystemTokens } from "../tokens/token-counter.js";
import { VOCABULARY } from "../vocabulary/vocabulary.js";
import type { JsonValue } from "../hashing/canonical-json.js";
import { type BundleDefinition, SECURITY_DECISION_PROMPT_KEY } from "./bundle-definition.js";
import { STANDARD_BUDGETS } from "./budget-profile.js";
import { DECISION_ACTIONS, type OutputFormat } from "./output-format.js";

const OUTPUT_FORMAT: OutputFormat = {
  instructions: "Answer with one JSON object and nothing else, with exactly these fields:",
  fields: [
    { name: "riskScore", type: "number", rule: "0 (no risk) to 1 (certain attack)" },
    { name: "confidence", type: "number", rule: "0 to 1, how sure you are of riskScore" },
    { name: "action", type: "string", rule: `one of ${DECISION_ACTIONS.join(", ")}` },
    { name: "reasoning", type: "string", rule: "at most 400 characters, citing fact IDs such as F3" },
    { name: "mitre", type: "string[]", rule: "MITRE ATT&CK technique IDs that apply, or []" },
    {
      name: "evidenceRefs",
      type: "string[]",
      rule: "the fact IDs (F1, F2, ...) you used; only IDs present in the fact sheet",
    },
  ],
};

/**
 * Minimum action rules (B5): floors the decision pipeline applies to the model's action. Conditions
 * read dictionary keys; a fact on the UNKNOWN line never satisfies an equality.
 */
const MINIMUM_ACTION_RULES: JsonValue = {
  version: "minimum-action-rules/1",
  defaults: { enabled: true, onInspectorFailure: "ESCALATE" },
  rules: [
    {
      id: "MAR-1",
      when: { "request.class": "RESTRICTED", "request.network": "EXTERNAL" },
      atLeast: "CHALLENGE",
    },
    { id: "MAR-2", when: { "request.action": "ADMIN", "device.trusted": "no" }, atLeast: "ESCALATE" },
    { id: "MAR-3", when: { unknownAnyOf: ["request.subject", "request.target"] }, atLeast: "CHALLENGE" },
  ],
};

/** The v20 bundle with a given dictionary (tests build variants; the build runs V20_BUNDLE). */
export function createV20Bundle(dictionary: Dictionary): BundleDefinition {
  return {
    descriptor: {
      promptKey: SECURITY_DECISION_PROMPT_KEY,
      templateKey: "security-decision.dictionary-blocks",
      promptVersion: "2026.09.15-v20",
      contractVersion: "CORTEX_PROMPT_CONTRACT_V3",
      releaseStatus: "AVAILABLE",
      owner: "platform-security",
      changeSummary:
        "Dictionary blocks: one numbered line per fact with a fact ID, an UNKNOWN line, PAST RECORDS in twelve fields; evidenceRefs cite fact IDs; minimum action rules.",
      supportedModelProfiles: ["openai:gpt-4o-mini@L1-standard", "openai:gpt-4o@L2-deep"],
    },
    layout: "v20-dictionary-blocks",
    parentVersion: "2026.07.30-v19",
    vocabularyVersion: VOCABULARY.version,
    compatibleVocabularyVersions: [VOCABULARY.version],
    rollbackTargets: ["2026.07.30-v19"],
    goldenInputs: [
      "internal-read",
      "external-admin-delete",
      "every-fact-missing",
      "long-history",
      "partly-known",
    ],
    evaluationScenarioFamilies: ["PROMPT_INJECTION", "TOOL_MISUSE", "MEMORY_POISONING", "MISSING_FACTS"],
    budgets: STANDARD_BUDGETS,
    outputFormat: OUTPUT_FORMAT,
    dictionary: dictionary as unknown as JsonValue,
    minimumActionRules: MINIMUM_ACTION_RULES,
    responseInspector: {
      version: "response-inspector/1",
      requiredFields: OUTPUT_FORMAT.fields.map((f) => f.name),
      actions: [...DECISION_ACTIONS],
      ranges: { riskScore: [0, 1], confidence: [0, 1] },
      reasoningMaxChars: 400,
      evidenceRefs: "fact-ids-present-in-prompt",
      onViolation: "ESCALATE",
    },
    retrieval: {
      pastRecords: {
        max: dictionary.pastRecords.cap,
        order: dictionary.pastRecords.order,
        similarityThreshold: 0.75,
      },
      waits: { retrievalMs: 150 },
      truncation: {
        valueChars: 120,
        listItems: 8,
        blockCaps: Object.fromEntries(dictionary.blocks.map((b) => [b.name, b.cap])),
        cut: "past records from the end of their order; nothing else",
      },
    },
    classifiers: VOCABULARY as unknown as JsonValue,
    renderSystem: (profile) => renderV20System(profile, OUTPUT_FORMAT),
    render(input, profile) {
      const system = renderV20System(profile, OUTPUT_FORMAT);
      return {
        system,
        systemTokens: countSystemTokens(system),
        ...renderV20User(input, profile, dictionary),
      };
    },
  };
}

/** The v20 dictionary-blocks bundle. */
export const V20_BUNDLE: BundleDefinition = createV20Bundle(V20_DICTIONARY);
