import { performance } from "node:perf_hooks";
import { setImmediate as nextTurn } from "node:timers/promises";
import { LayeredDecisionEngine } from "../../decisions/engine/layered-decision-engine.js";
import { selectionFromCatalog } from "../../decisions/engine/bundle-selection.js";
import type { DecisionEngineResult } from "../../decisions/engine/decision-record.js";
import type { DecisionModel } from "../../decisions/model/decision-model.js";
import { type Clock, SystemClock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { BundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import { countTokens } from "../../prompts/tokens/token-counter.js";
import type { CaseResult, EvaluationRunRecord } from "./evaluation-run-record.js";
import { summarizeCases } from "./evaluation-summary.js";
import { DEFAULT_SCENARIO_FAMILIES, loadScenarioTestSet, type ScenarioTestSet } from "./scenario-family.js";
import { gradeDecision, SCENARIO_GRADER } from "./scenario-grader.js";

/** What `runBundleEvaluation` needs; the CLI fills it from the decisions and evaluation properties. */
export interface BundleEvaluationOptions {
  readonly catalog: BundleCatalog;
  /** The bundle version evaluated (a runnable bundle of the catalog). */
  readonly version: string;
  /** The configured decision model (its name is recorded as provider and name). */
  readonly model: DecisionModel;
  /** 1 to 20: how often each case is decided. */
  readonly repetitions: number;
  /** The families run; default the manifest's `evaluationScenarioFamilies`, else DEFAULT_SCENARIO_FAMILIES. */
  readonly families?: readonly string[] | undefined;
  /** The test set; default the one under the catalog's root. */
  readonly testSet?: ScenarioTestSet | undefined;
  /** The engine's settings, as the decisions plugin reads them. */
  readonly escalationConfidence: number;
  readonly timeouts: { readonly L1: number; readonly L2: number };
  /** The hash of the database policies the run decided with; absent on a host without policy sets. */
  readonly policySetHash?: string | undefined;
  readonly clock?: Clock | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Called after each graded decision (progress output). */
  readonly onResult?: ((result: CaseResult) => void) | undefined;
}

/** `openai-compatible:gpt-4o-mini` → provider and name; a name without a colon is provider `custom`. */
function modelOf(name: string): { provider: string; name: string } {
  const colon = name.indexOf(":");
  return colon > 0
    ? { provider: name.slice(0, colon), name: name.slice(colon + 1) }
    : { provider: "custom", name };
}

/** Tokens one decision spent: every prompt sent and every answer received, both layers, retries included. */
export function tokensOfDecision(result: DecisionEngineResult): number {
  return result.layers.reduce((sum, layer) => {
    const prompt = countTokens(layer.system) + countTokens(layer.user);
    return (
      sum +
      layer.attempts.reduce((s, a) => s + prompt + (a.answer === undefined ? 0 : countTokens(a.answer)), 0)
    );
  }, 0);
}

function familiesOf(o: BundleEvaluationOptions, testSet: ScenarioTestSet): readonly string[] {
  const declared = o.catalog.find(o.version)?.manifest.evaluationScenarioFamilies;
  const families = o.families ?? (declared?.length ? declared : DEFAULT_SCENARIO_FAMILIES);
  const unknown = families.filter((f) => !testSet.families.has(f));
  if (unknown.length || families.length === 0 || new Set(families).size !== families.length)
    throw new PlatformError(
      "VALIDATION_FAILED",
      `families must be distinct names of the test set (${[...testSet.families.keys()].join(", ")})`,
      { details: { field: "families", unknown } },
    );
  return families;
}

/**
 * Runs every case of the chosen scenario families through the layered decision engine with the
 * bundle fixed to `version` and the configured model, `repetitions` times each, grades each
 * decision against the case's fixed expected answer, and returns the run record (not posted: the
 * caller posts it as an EVALUATION_RUN). Cases run one after another, so a rate-limited API is
 * asked one thing at a time, and the event loop gets a turn after each (the intake replays offline
 * analyst runs on a serving instance).
 */
export async function runBundleEvaluation(o: BundleEvaluationOptions): Promise<EvaluationRunRecord> {
  if (!Number.isInteger(o.repetitions) || o.repetitions < 1 || o.repetitions > 20)
    throw new PlatformError("VALIDATION_FAILED", "repetitions must be an integer from 1 to 20", {
      details: { field: "repetitions" },
    });
  const selection = selectionFromCatalog(o.catalog, o.version, "CONFIGURATION");
  const testSet = o.testSet ?? loadScenarioTestSet(o.catalog.root);
  const families = familiesOf(o, testSet);
  const clock = o.clock ?? new SystemClock();
  const signal = o.signal ?? new AbortController().signal;
  const engine = new LayeredDecisionEngine({
    model: o.model,
    clock,
    escalationConfidence: o.escalationConfidence,
    timeouts: o.timeouts,
  });
  const startedAt = new Date(clock.now()).toISOString();
  const cases: CaseResult[] = [];
  for (const family of families) {
    const scenario = testSet.families.get(family)!;
    for (const c of scenario.cases)
      for (let repetition = 1; repetition <= o.repetitions; repetition += 1) {
        const began = performance.now();
        const result = await engine.decide(c.input, selection, signal);
        const latencyMs = Math.round((performance.now() - began) * 1000) / 1000;
        const { action } = result.record;
        const graded: CaseResult = {
          family,
          caseId: c.id,
          owaspId: scenario.owaspId,
          repetition,
          passed: gradeDecision(c.expected, action),
          action,
          latencyMs,
          tokens: tokensOfDecision(result),
        };
        cases.push(graded);
        o.onResult?.(graded);
        // A model in this process (the offline analyst) never waits: give the event loop its turn.
        await nextTurn();
      }
  }
  const { promptKey } = selection.bundle.descriptor;
  return {
    format: "evaluation-run/1",
    testSetHash: testSet.hash,
    promptKey,
    promptVersion: o.version,
    bundleHash: selection.bundleHash,
    model: modelOf(o.model.name),
    grader: { ...SCENARIO_GRADER },
    repetitions: o.repetitions,
    families: [...families],
    startedAt,
    finishedAt: new Date(clock.now()).toISOString(),
    ...(o.policySetHash === undefined ? {} : { policySetHash: o.policySetHash }),
    cases,
    summary: summarizeCases(families, cases),
  };
}
