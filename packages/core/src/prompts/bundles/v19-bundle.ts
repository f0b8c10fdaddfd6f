import type { JsonValue } from "../hashing/canonical-json.js";
import { renderV19User } from "../layouts/v19/render-v19.js";
import { renderV19System } from "../layouts/v19/v19-system-text.js";
import { V19_SECTIONS, type V19Limits } from "../layouts/v19/v19-sections.js";
import { countSystemTokens } from "../tokens/token-counter.js";
import { VOCABULARY } from "../vocabulary/vocabulary.js";
import { type BundleDefinition, SECURITY_DECISION_PROMPT_KEY } from "./bundle-definition.js";
import { STANDARD_BUDGETS } from "./budget-profile.js";
import { DECISION_ACTIONS, type OutputFormat } from "./output-format.js";

const LIMITS: V19Limits = { ragRecords: 5, notesPerSection: 6, noteChars: 240 };

const OUTPUT_FORMAT: OutputFormat = {
  instructions: "Answer with one JSON object and nothing else, with exactly these fields:",
  fields: [
    { name: "riskScore", type: "number", rule: "0 (no risk) to 1 (certain attack)" },
    { name: "confidence", type: "number", rule: "0 to 1, how sure you are of riskScore" },
    { name: "action", type: "string", rule: `one of ${DECISION_ACTIONS.join(", ")}` },
    { name: "reasoning", type: "string", rule: "at most 400 characters, citing the facts you used" },
    { name: "mitre", type: "string[]", rule: "MITRE ATT&CK technique IDs that apply, or []" },
    { name: "evidenceRefs", type: "string[]", rule: "names of the sections whose facts you used" },
  ],
};

/** The v19 sections bundle, the build default. */
export const V19_BUNDLE: BundleDefinition = {
  descriptor: {
    promptKey: SECURITY_DECISION_PROMPT_KEY,
    templateKey: "security-decision.sections",
    promptVersion: "2026.07.30-v19",
    contractVersion: "CORTEX_PROMPT_CONTRACT_V2",
    releaseStatus: "ACTIVE",
    owner: "platform-security",
    changeSummary:
      "Sixteen prioritised user sections cut by priority to token budgets; EXPLICIT_MISSING_KNOWLEDGE names unknown facts and cut sections.",
    supportedModelProfiles: ["openai:gpt-4o-mini@L1-standard", "openai:gpt-4o@L2-deep"],
  },
  layout: "v19-sections",
  parentVersion: "2026.05.12-v18",
  vocabularyVersion: VOCABULARY.version,
  compatibleVocabularyVersions: ["vocab-2", VOCABULARY.version],
  rollbackTargets: ["2026.05.12-v18"],
  goldenInputs: ["internal-read", "external-admin-delete", "every-fact-missing", "long-history"],
  budgets: STANDARD_BUDGETS,
  outputFormat: OUTPUT_FORMAT,
  responseInspector: {
    version: "response-inspector/1",
    requiredFields: OUTPUT_FORMAT.fields.map((f) => f.name),
    actions: [...DECISION_ACTIONS],
    ranges: { riskScore: [0, 1], confidence: [0, 1] },
    reasoningMaxChars: 400,
    evidenceRefs: "section-names",
    onViolation: "ESCALATE",
  },
  retrieval: {
    pastRecords: { max: LIMITS.ragRecords, order: "latest-first", similarityThreshold: 0.75 },
    waits: { retrievalMs: 150 },
    truncation: {
      notesPerSection: LIMITS.notesPerSection,
      noteChars: LIMITS.noteChars,
      sections: V19_SECTIONS.map((s) => ({ name: s.name, priority: s.priority })),
      cut: "whole sections, P2 last-to-first, then P1 last-to-first; P0 never",
    },
  } satisfies JsonValue,
  classifiers: VOCABULARY as unknown as JsonValue,
  renderSystem: (profile) => renderV19System(profile, OUTPUT_FORMAT),
  render(input, profile) {
    const system = renderV19System(profile, OUTPUT_FORMAT);
    return { system, systemTokens: countSystemTokens(system), ...renderV19User(input, profile, LIMITS) };
  },
};
