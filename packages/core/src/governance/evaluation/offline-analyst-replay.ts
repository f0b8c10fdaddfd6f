import { OfflineAnalyst } from "../../decisions/analyst/offline-analyst.js";
import {
  DECISION_ESCALATION_CONFIDENCE,
  DECISION_L1_TIMEOUT,
  DECISION_L2_TIMEOUT,
} from "../../decisions/decisions.properties.js";
import type { BundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import { cappedReasons } from "./evaluation-record-check.js";
import type { EvaluationRunRecord } from "./evaluation-run-record.js";
import { runBundleEvaluation } from "./run-bundle-evaluation.js";
import type { ScenarioTestSet } from "./scenario-family.js";

/** The provider a run record names for a model built into the platform. */
const BUILTIN_PROVIDER = "builtin";

/** What a replay decides with: the build's catalog and test set. */
export interface OfflineReplayBuild {
  readonly catalog: BundleCatalog;
  readonly testSet: ScenarioTestSet;
}

/**
 * Why a run record that names a built-in model does not hold, or none (also none for any other
 * model: there the trust boundary stands). Provider `builtin` names the offline analyst
 * (`builtin:offline-analyst/1`) or nothing this build has. The offline analyst is deterministic,
 * so the server decides every case of the record's families once with it (the record's version,
 * the decision engine's default settings: its actions do not depend on them) and each recorded
 * action of every repetition must be the one it decides. A full run takes well under a second and
 * yields the event loop between cases.
 */
export async function offlineAnalystReplayReasons(
  record: EvaluationRunRecord,
  build: OfflineReplayBuild,
): Promise<string[]> {
  if (record.model.provider !== BUILTIN_PROVIDER) return [];
  const analyst = new OfflineAnalyst();
  const named = `${record.model.provider}:${record.model.name}`;
  if (named !== analyst.name)
    return [`model ${named} is not a built-in model of this build (${analyst.name} is)`];
  const replay = await runBundleEvaluation({
    catalog: build.catalog,
    testSet: build.testSet,
    version: record.promptVersion,
    model: analyst,
    repetitions: 1,
    families: record.families,
    escalationConfidence: DECISION_ESCALATION_CONFIDENCE.default,
    timeouts: { L1: DECISION_L1_TIMEOUT.default, L2: DECISION_L2_TIMEOUT.default },
  });
  const decided = new Map(replay.cases.map((c) => [`${c.family}/${c.caseId}`, c.action]));
  const reasons: string[] = [];
  for (const c of record.cases) {
    const action = decided.get(`${c.family}/${c.caseId}`);
    if (action !== undefined && action !== c.action)
      reasons.push(
        `${c.family}/${c.caseId}#${c.repetition}: the offline analyst decides ${action}, the record says ${c.action}`,
      );
  }
  return cappedReasons(reasons);
}
