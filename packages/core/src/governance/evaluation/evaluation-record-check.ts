import { canonicalJson, type JsonValue } from "../../prompts/hashing/canonical-json.js";
import type { CaseResult, EvaluationRunRecord } from "./evaluation-run-record.js";
import { summarizeCases } from "./evaluation-summary.js";
import type { ScenarioTestSet } from "./scenario-family.js";
import { gradeDecision, SCENARIO_GRADER } from "./scenario-grader.js";

/** The most reasons one refusal lists; past it the rest are counted. */
const MAX_REASONS = 20;

/** How far past the server's clock a run's `startedAt` or `finishedAt` may be: 5 minutes of clock skew. */
export const MAX_RUN_CLOCK_SKEW_MS = 5 * 60_000;

/** `reasons` as a refusal lists them: the first 20, then how many more. */
export function cappedReasons(reasons: readonly string[]): string[] {
  if (reasons.length <= MAX_REASONS) return [...reasons];
  return [...reasons.slice(0, MAX_REASONS), `and ${reasons.length - MAX_REASONS} more`];
}

/** What a run record is checked against: the build's test set and the manifest of its version. */
export interface RunRecordExpectations {
  readonly testSet: ScenarioTestSet;
  readonly promptKey: string;
  readonly promptVersion: string;
  /** The manifest's bundle hash of `promptVersion`. */
  readonly bundleHash: string;
  /** The server's now (epoch ms): a run cannot have started or finished later than this plus the skew. */
  readonly now: number;
}

function caseReasons(record: EvaluationRunRecord, testSet: ScenarioTestSet): string[] {
  const reasons: string[] = [];
  const seen = new Set<string>();
  const listed = new Set(record.families);
  for (const r of record.cases) {
    const key = `${r.family}/${r.caseId}#${r.repetition}`;
    const family = testSet.families.get(r.family);
    const scenario = family?.cases.find((c) => c.id === r.caseId);
    if (!listed.has(r.family)) reasons.push(`${key}: family ${r.family} is not among the run's families`);
    else if (!family || !scenario) reasons.push(`${key}: no such case in this build's test set`);
    else {
      if (r.owaspId !== family.owaspId)
        reasons.push(`${key}: owaspId is not the family's (${family.owaspId})`);
      if (r.passed !== gradeDecision(scenario.expected, r.action))
        reasons.push(`${key}: passed=${r.passed} but ${r.action} grades ${!r.passed}`);
    }
    if (r.repetition > record.repetitions) reasons.push(`${key}: repetition above ${record.repetitions}`);
    if (seen.has(key)) reasons.push(`${key}: listed twice`);
    seen.add(key);
  }
  for (const name of record.families) {
    const family = testSet.families.get(name);
    if (!family) continue;
    for (const c of family.cases)
      for (let rep = 1; rep <= record.repetitions; rep += 1)
        if (!seen.has(`${name}/${c.id}#${rep}`))
          reasons.push(`${name}/${c.id}#${rep}: missing from the cases`);
  }
  return reasons;
}

function headerReasons(record: EvaluationRunRecord, e: RunRecordExpectations): string[] {
  const reasons: string[] = [];
  if (record.testSetHash !== e.testSet.hash)
    reasons.push(`testSetHash is not this build's test set (${e.testSet.hash})`);
  if (record.promptKey !== e.promptKey || record.promptVersion !== e.promptVersion)
    reasons.push(
      `the record is of ${record.promptKey} ${record.promptVersion}, submitted for ${e.promptKey} ${e.promptVersion}`,
    );
  if (record.bundleHash !== e.bundleHash)
    reasons.push(`bundleHash is not the manifest's hash of ${e.promptVersion} (${e.bundleHash})`);
  if (record.grader.name !== SCENARIO_GRADER.name || record.grader.version !== SCENARIO_GRADER.version)
    reasons.push(
      `grader ${record.grader.name}/${record.grader.version} is not ${SCENARIO_GRADER.name}/${SCENARIO_GRADER.version}`,
    );
  if (new Set(record.families).size !== record.families.length) reasons.push("families lists a family twice");
  for (const f of record.families)
    if (!e.testSet.families.has(f)) reasons.push(`family ${f} is not in this build's test set`);
  if (Date.parse(record.finishedAt) < Date.parse(record.startedAt))
    reasons.push("finishedAt is before startedAt");
  const latest = e.now + MAX_RUN_CLOCK_SKEW_MS;
  for (const field of ["startedAt", "finishedAt"] as const)
    if (Date.parse(record[field]) > latest)
      reasons.push(`${field} is in the future (later than the server's clock plus 5 minutes)`);
  return reasons;
}

function summaryReasons(record: EvaluationRunRecord): string[] {
  const expected = summarizeCases(record.families, record.cases as CaseResult[]);
  const given = record.summary;
  const reasons: string[] = [];
  const same = (a: unknown, b: unknown) => canonicalJson(a as JsonValue) === canonicalJson(b as JsonValue);
  if (!same(given.overall, expected.overall))
    reasons.push(`summary.overall is not what the cases give (${canonicalJson(expected.overall)})`);
  if (!same(given.families, expected.families))
    reasons.push(`summary.families is not what the cases give (${canonicalJson(expected.families)})`);
  if (given.latencyP95Ms !== expected.latencyP95Ms)
    reasons.push(`summary.latencyP95Ms is not the cases' p95 (${expected.latencyP95Ms})`);
  if (given.tokensPerDecision !== expected.tokensPerDecision)
    reasons.push(`summary.tokensPerDecision is not the cases' mean (${expected.tokensPerDecision})`);
  return reasons;
}

/**
 * Why a run record does not hold together, or none: its test set, version, bundle hash and grader
 * must be this build's; every case of every family it lists must be there once per repetition, and
 * nothing else; each `passed` must be what the grader gives the recorded action; and the summary
 * must be what the cases give; and it cannot have started or finished in the future (the server's
 * clock plus MAX_RUN_CLOCK_SKEW_MS). What no check can prove is that a model made the recorded actions:
 * that is the trust boundary, and the record is audited under its author.
 */
export function runRecordInconsistencies(record: EvaluationRunRecord, e: RunRecordExpectations): string[] {
  return cappedReasons([
    ...headerReasons(record, e),
    ...caseReasons(record, e.testSet),
    ...summaryReasons(record),
  ]);
}
