import type { BundleCatalog } from "../../prompts/bundle-catalog-token.js";
import type { RollbackCondition, ReleaseRow, ReleaseScopeHead } from "../registry/release-registry.js";
import { findRelease } from "../registry/release-rows.js";
import type { RollbackConditionCode } from "../release-governance.js";

/** What the rollback conditions are checked on. */
export interface RollbackCheckInput {
  readonly head: ReleaseScopeHead;
  readonly catalog: BundleCatalog;
  readonly promptKey: string;
  readonly fromVersion: string;
  readonly toVersion: string;
  /** Whether the host has policy sets (NOT_APPLICABLE for POLICY_SET_MISSING otherwise). */
  readonly hasPolicySets: boolean;
  /** The policy set hash the target's latest evaluation run for its bundle hash records, if any. */
  readonly targetEvaluationPolicySet?: string | undefined;
}

const passed = (code: RollbackConditionCode, detail: string): RollbackCondition => ({
  code,
  outcome: "PASSED",
  detail,
});
const failed = (code: RollbackConditionCode, detail: string): RollbackCondition => ({
  code,
  outcome: "FAILED",
  detail,
});

/** The catalog's manifest of `version` under `promptKey`, if it has one. */
function manifestOf(catalog: BundleCatalog, promptKey: string, version: string) {
  const entry = catalog.find(version);
  return entry !== undefined && entry.manifest.descriptor.promptKey === promptKey ? entry : undefined;
}

function sourceExecuting(source: ReleaseRow | undefined, i: RollbackCheckInput): RollbackCondition {
  if (source === undefined) return failed("SOURCE_NOT_EXECUTING", `${i.fromVersion} has no row in the scope`);
  return source.status === "ACTIVE" || source.status === "CANARY"
    ? passed("SOURCE_NOT_EXECUTING", `${i.fromVersion} is ${source.status}`)
    : failed("SOURCE_NOT_EXECUTING", `${i.fromVersion} is ${source.status}, neither ACTIVE nor CANARY`);
}

function targetDeclared(source: ReleaseRow | undefined, i: RollbackCheckInput): RollbackCondition {
  // The manifest in the catalog first; a source this build no longer reads declares what its row recorded.
  const declared =
    manifestOf(i.catalog, i.promptKey, i.fromVersion)?.manifest.rollbackTargets ?? source?.rollbackTargets;
  if (declared === undefined) return failed("TARGET_NOT_DECLARED", `no manifest or row of ${i.fromVersion}`);
  return declared.includes(i.toVersion) && i.toVersion !== i.fromVersion
    ? passed("TARGET_NOT_DECLARED", `${i.fromVersion} declares ${i.toVersion}`)
    : failed("TARGET_NOT_DECLARED", `${i.fromVersion} declares [${declared.join(", ")}], not ${i.toVersion}`);
}

/**
 * The current vocabulary is the executing source's (its manifest's `vocabularyVersion`): the
 * version the scope's facts and records are written in now, which the target must read.
 */
function vocabularyCompatible(i: RollbackCheckInput): RollbackCondition {
  const source = manifestOf(i.catalog, i.promptKey, i.fromVersion)?.manifest;
  const target = manifestOf(i.catalog, i.promptKey, i.toVersion)?.manifest;
  if (source === undefined || target === undefined)
    return failed(
      "VOCABULARY_INCOMPATIBLE",
      `no manifest of ${source === undefined ? i.fromVersion : i.toVersion}`,
    );
  return target.compatibleVocabularyVersions.includes(source.vocabularyVersion)
    ? passed("VOCABULARY_INCOMPATIBLE", `${i.toVersion} reads ${source.vocabularyVersion}`)
    : failed(
        "VOCABULARY_INCOMPATIBLE",
        `${i.toVersion} reads [${target.compatibleVocabularyVersions.join(", ")}], not ${source.vocabularyVersion}`,
      );
}

function targetRegistered(target: ReleaseRow | undefined, i: RollbackCheckInput): RollbackCondition {
  if (target === undefined) return failed("TARGET_NOT_REGISTERED", `${i.toVersion} has no row in the scope`);
  // RETIRED keeps only the record: the transition table lets nothing leave it, a rollback neither.
  return target.status === "RETIRED"
    ? failed("TARGET_NOT_REGISTERED", `${i.toVersion} is RETIRED: only its record is kept`)
    : passed("TARGET_NOT_REGISTERED", `${i.toVersion} is ${target.status}`);
}

function policySetPresent(target: ReleaseRow | undefined, i: RollbackCheckInput): RollbackCondition {
  if (!i.hasPolicySets)
    return { code: "POLICY_SET_MISSING", outcome: "NOT_APPLICABLE", detail: "the host has no policy sets" };
  if (target?.policySetHash !== undefined)
    return passed(
      "POLICY_SET_MISSING",
      `${i.toVersion} executed with policy set ${target.policySetHash.slice(0, 12)}`,
    );
  if (i.targetEvaluationPolicySet !== undefined)
    return passed(
      "POLICY_SET_MISSING",
      `${i.toVersion} was evaluated with policy set ${i.targetEvaluationPolicySet.slice(0, 12)}`,
    );
  return failed(
    "POLICY_SET_MISSING",
    `${i.toVersion} records no policy set, nor does its latest evaluation run`,
  );
}

/**
 * Every rollback condition, in ROLLBACK_CONDITION_CODES order, each PASSED, FAILED or
 * NOT_APPLICABLE with a sentence; all are checked (not only up to the first failure), so a refusal
 * names everything that is wrong.
 */
export function rollbackConditions(i: RollbackCheckInput): RollbackCondition[] {
  const source = findRelease(i.head, i.promptKey, i.fromVersion);
  const target = findRelease(i.head, i.promptKey, i.toVersion);
  const inBuild = manifestOf(i.catalog, i.promptKey, i.toVersion)?.bundle !== undefined;
  return [
    sourceExecuting(source, i),
    inBuild
      ? passed("TARGET_NOT_IN_BUILD", `this build runs ${i.toVersion}`)
      : failed("TARGET_NOT_IN_BUILD", `this build does not run ${i.toVersion}`),
    targetDeclared(source, i),
    vocabularyCompatible(i),
    targetRegistered(target, i),
    policySetPresent(target, i),
  ];
}
