import type { BundleDefinition, PromptLayout } from "../../prompts/bundles/bundle-definition.js";
import type { BundleManifest } from "../../prompts/manifest/bundle-manifest.js";
import { TOKEN_ENCODING } from "../../prompts/tokens/token-counter.js";
import type { EvaluationRunRecord } from "../evaluation/evaluation-run-record.js";
import { wilsonLowerBound } from "../evaluation/wilson-bound.js";
import { DEFAULT_SCENARIO_FAMILIES } from "../evaluation/scenario-family.js";
import type { GateBlocker } from "../release-governance.js";
import type {
  BudgetProfileContent,
  CompactionPolicyContent,
  ModelCompatibilityContent,
  TokenCountingPolicyContent,
} from "./evidence-kind-schemas.js";
import type { ShadowComparisonContent } from "./shadow-comparison-content.js";

/** The gate's thresholds (the evaluation properties). */
export interface EvaluationThresholds {
  readonly passRateLowerBound: number;
  readonly injectionLowerBound: number;
  readonly maxLatencyP95Ms: number;
  readonly maxTokensPerDecision: number;
  readonly minRepetitions: number;
  /** Fewest summed shadow runs that can stand for the empirical evaluation. */
  readonly shadowMinRuns: number;
  /** Lowest Wilson lower bound (95 %) of their action agreement that can. */
  readonly shadowAgreementLowerBound: number;
}

/** What each layout cuts when a prompt is over its budget: a compaction policy must say the same. */
export const LAYOUT_COMPACTION: Readonly<Record<PromptLayout, string>> = {
  "v19-sections": "CUT_SECTIONS_BY_PRIORITY",
  "v20-dictionary-blocks": "DROP_PAST_RECORDS",
};

type Check = GateBlocker | undefined;

/** MODEL_COMPATIBILITY: the newest record lists every profile the manifest declares as COMPATIBLE. */
export function checkModelCompatibility(
  newest: ModelCompatibilityContent | undefined,
  manifest: BundleManifest,
): Check {
  if (!newest)
    return {
      code: "MODEL_COMPATIBILITY_MISSING",
      detail: "No model compatibility evidence for this bundle hash.",
    };
  const declared = manifest.descriptor.supportedModelProfiles;
  const ok = new Set(newest.profiles.filter((p) => p.verdict === "COMPATIBLE").map((p) => p.profile));
  const missing = declared.filter((p) => !ok.has(p));
  return missing.length
    ? {
        code: "MODEL_COMPATIBILITY_MISSING",
        detail: `Not shown COMPATIBLE by the newest record: ${missing.join(", ")}.`,
      }
    : undefined;
}

/** BUDGET_PROFILE: the newest record names the bundle's L1 and L2 profiles exactly as its B8 has them. */
export function checkBudgetProfile(
  newest: BudgetProfileContent | undefined,
  bundle: BundleDefinition | undefined,
): Check {
  if (!newest)
    return { code: "BUDGET_PROFILE_MISSING", detail: "No budget profile evidence for this bundle hash." };
  if (!bundle)
    return {
      code: "BUDGET_PROFILE_MISSING",
      detail: "The bundle is not run by this build; its B8 cannot be compared.",
    };
  const wrong = (["L1", "L2"] as const).filter((family) => {
    const b8 = bundle.budgets.find((p) => p.family === family);
    const given = newest.profiles.find((p) => p.family === family);
    return (
      !b8 ||
      !given ||
      given.name !== b8.name ||
      given.maxTokens !== b8.maxTokens ||
      given.systemTokens !== b8.systemTokens ||
      given.userTokens !== b8.userTokens ||
      given.outputTokens !== b8.outputTokens
    );
  });
  return wrong.length
    ? {
        code: "BUDGET_PROFILE_MISSING",
        detail: `The newest record's ${wrong.join(" and ")} profile is not the bundle's B8 profile.`,
      }
    : undefined;
}

/** The families a run must cover for TEVV: the manifest's, else the three default ones. */
export function requiredFamilies(manifest: BundleManifest): readonly string[] {
  const declared = manifest.evaluationScenarioFamilies;
  return declared?.length ? declared : DEFAULT_SCENARIO_FAMILIES;
}

/** The ACTIVE checks read from the newest evaluation run for the hash. */
export function checkRun(
  run: EvaluationRunRecord | undefined,
  manifest: BundleManifest,
  t: EvaluationThresholds,
): GateBlocker[] {
  if (!run)
    return [
      { code: "PROMPT_INJECTION_GATE_FAILED", detail: "No evaluation run for this bundle hash." },
      { code: "NON_FUNCTIONAL_GATE_FAILED", detail: "No evaluation run for this bundle hash." },
      { code: "EMPIRICAL_EVAL_MISSING", detail: "No evaluation run for this bundle hash." },
      { code: "TEVV_GATE_NOT_READY", detail: "No evaluation run for this bundle hash." },
    ];
  const out: GateBlocker[] = [];
  const injection = run.summary.families.find((f) => f.family === "PROMPT_INJECTION");
  if (!injection)
    out.push({
      code: "PROMPT_INJECTION_GATE_FAILED",
      detail: "The newest run did not run the PROMPT_INJECTION family.",
    });
  else if (injection.lowerBound < t.injectionLowerBound)
    out.push({
      code: "PROMPT_INJECTION_GATE_FAILED",
      detail: `PROMPT_INJECTION lower bound ${injection.lowerBound} (${injection.passed}/${injection.trials}) is below ${t.injectionLowerBound}.`,
    });
  const { latencyP95Ms, tokensPerDecision, overall } = run.summary;
  if (latencyP95Ms > t.maxLatencyP95Ms || tokensPerDecision > t.maxTokensPerDecision)
    out.push({
      code: "NON_FUNCTIONAL_GATE_FAILED",
      detail: `Latency p95 ${latencyP95Ms} ms (at most ${t.maxLatencyP95Ms}), ${tokensPerDecision} tokens per decision (at most ${t.maxTokensPerDecision}).`,
    });
  if (run.repetitions < t.minRepetitions || overall.lowerBound < t.passRateLowerBound)
    out.push({
      code: "EMPIRICAL_EVAL_MISSING",
      detail: `The newest run has ${run.repetitions} repetitions (at least ${t.minRepetitions}) and an overall lower bound of ${overall.lowerBound} (at least ${t.passRateLowerBound}).`,
    });
  const uncovered = requiredFamilies(manifest).filter((f) => !run.families.includes(f));
  if (uncovered.length)
    out.push({
      code: "TEVV_GATE_NOT_READY",
      detail: `The newest run does not cover ${uncovered.join(", ")}.`,
    });
  return out;
}

/** The three policies for ACTIVE: present for the hash; token counting in the build's encoding, compaction as the layout cuts. */
export function checkPolicies(
  tokenCounting: TokenCountingPolicyContent | undefined,
  cache: unknown,
  compaction: CompactionPolicyContent | undefined,
  layout: PromptLayout,
): GateBlocker[] {
  const out: GateBlocker[] = [];
  if (!tokenCounting)
    out.push({
      code: "TOKEN_COUNTING_POLICY_MISSING",
      detail: "No token counting policy for this bundle hash.",
    });
  else if (tokenCounting.encoding !== TOKEN_ENCODING)
    out.push({
      code: "TOKEN_COUNTING_POLICY_MISSING",
      detail: `The newest policy counts in ${tokenCounting.encoding}; this build counts budgets in ${TOKEN_ENCODING}.`,
    });
  if (cache === undefined)
    out.push({ code: "CACHE_POLICY_MISSING", detail: "No cache policy for this bundle hash." });
  if (!compaction)
    out.push({ code: "COMPACTION_POLICY_MISSING", detail: "No compaction policy for this bundle hash." });
  else if (compaction.strategy !== LAYOUT_COMPACTION[layout])
    out.push({
      code: "COMPACTION_POLICY_MISSING",
      detail: `The newest policy says ${compaction.strategy}; the ${layout} layout does ${LAYOUT_COMPACTION[layout]}.`,
    });
  return out;
}

/** The shadow comparisons of one bundle hash, summed over their records. */
export interface ShadowAgreement {
  readonly records: number;
  readonly runs: number;
  readonly agreed: number;
}

/** Sums SHADOW_COMPARISON contents (batches are disjoint: each run is in one record). */
export function sumShadowComparisons(contents: readonly ShadowComparisonContent[]): ShadowAgreement {
  let runs = 0;
  let agreed = 0;
  for (const c of contents) {
    runs += c.runs;
    agreed += c.agreed;
  }
  return { records: contents.length, runs, agreed };
}

/**
 * EMPIRICAL_EVAL_MISSING with the shadow comparisons as the other accepted kind: the evaluation run's
 * blocker (`runBlocker`, undefined when the run's empirical part passed) stands only when the summed
 * shadow runs are fewer than `shadowMinRuns` or their agreement's Wilson lower bound is below
 * `shadowAgreementLowerBound`; its detail then says both.
 */
export function checkEmpirical(
  runBlocker: GateBlocker | undefined,
  shadow: ShadowAgreement,
  t: EvaluationThresholds,
): Check {
  if (runBlocker === undefined) return undefined;
  const exact = wilsonLowerBound(shadow.agreed, shadow.runs);
  if (shadow.runs >= t.shadowMinRuns && exact >= t.shadowAgreementLowerBound) return undefined;
  const bound = Math.floor(exact * 1000) / 1000;
  return {
    code: "EMPIRICAL_EVAL_MISSING",
    detail:
      `${runBlocker.detail} Shadow comparisons: ${shadow.runs} runs in ${shadow.records} records ` +
      `(at least ${t.shadowMinRuns}), agreement lower bound ${bound} (at least ${t.shadowAgreementLowerBound}).`,
  };
}
