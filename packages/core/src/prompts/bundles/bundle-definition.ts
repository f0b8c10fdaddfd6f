import type { JsonValue } from "../hashing/canonical-json.js";
import type { PromptInput } from "../input/prompt-input.js";
import type { PromptRender } from "../layouts/prompt-render.js";
import type { BudgetProfile } from "./budget-profile.js";
import type { OutputFormat } from "./output-format.js";

/** The prompt key of the security decision prompt. */
export const SECURITY_DECISION_PROMPT_KEY = "cortex.security-decision";

/** The user prompt layouts a bundle can draw. */
export const PROMPT_LAYOUTS = ["v19-sections", "v20-dictionary-blocks"] as const;
/** One of PROMPT_LAYOUTS. */
export type PromptLayout = (typeof PROMPT_LAYOUTS)[number];

/** Who a bundle is, who owns it and what it was made for (the manifest's `descriptor`). */
export interface GovernanceDescriptor {
  readonly promptKey: string;
  readonly templateKey: string;
  readonly promptVersion: string;
  readonly contractVersion: string;
  readonly releaseStatus: string;
  readonly owner: string;
  readonly changeSummary: string;
  readonly supportedModelProfiles: readonly string[];
}

/**
 * A bundle this build runs, as code: its manifest fields and the sources of its eleven elements.
 * The manifest of a runnable bundle is written from this (`pnpm bundles:update`) and checked
 * against it on every read.
 */
export interface BundleDefinition {
  readonly descriptor: GovernanceDescriptor;
  readonly layout: PromptLayout;
  readonly parentVersion: string | null;
  readonly vocabularyVersion: string;
  readonly compatibleVocabularyVersions: readonly string[];
  readonly rollbackTargets: readonly string[];
  /** Names of the golden inputs (`prompt-bundles/golden/inputs/<name>.json`) whose renders B3 covers. */
  readonly goldenInputs: readonly string[];
  readonly evaluationScenarioFamilies?: readonly string[];
  /** B8, and the profiles B1 and B3 render with. */
  readonly budgets: readonly BudgetProfile[];
  /** B4. */
  readonly outputFormat: OutputFormat;
  /** B6: the response inspector's definition. */
  readonly responseInspector: JsonValue;
  /** B7: retrieval counts, thresholds, waits and truncation. */
  readonly retrieval: JsonValue;
  /** B2: every dictionary entry with all fields; absent for a layout without a dictionary. */
  readonly dictionary?: JsonValue;
  /** B5: the minimum action rules and their defaults; absent when the bundle applies none. */
  readonly minimumActionRules?: JsonValue;
  /** B10: the classifier tables (the vocabulary version is `vocabularyVersion`). */
  readonly classifiers: JsonValue;
  /** The system text of a budget profile. */
  renderSystem(profile: BudgetProfile): string;
  /** The system and user prompt of `input` within `profile`. */
  render(input: PromptInput, profile: BudgetProfile): PromptRender;
}
