import { OfflineAnalyst } from "../../decisions/analyst/offline-analyst.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { ManualClock } from "../../kernel/clock.js";
import { type BundleCatalog, loadBundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import type { EvaluationRunRecord } from "../evaluation/evaluation-run-record.js";
import { runBundleEvaluation } from "../evaluation/run-bundle-evaluation.js";
import { loadScenarioTestSet, type ScenarioTestSet } from "../evaluation/scenario-family.js";
import type { PolicySetSource } from "../policy-sets/policy-set-hash.js";
import type { ReleaseRow } from "../registry/release-registry.js";
import type { GovernanceActor } from "../release-governance.js";
import { LedgerEvidenceIntake } from "./evidence-intake-service.js";
import { InMemoryReleaseEvidenceLedger } from "./in-memory-release-evidence-ledger.js";

/** The two bundles this build runs. */
export const V19 = "2026.07.30-v19";
export const V20 = "2026.09.15-v20";
export const PROMPT_KEY = "cortex.security-decision";
export const ADMIN: GovernanceActor = { username: "admin", correlationId: "corr-1" };

let shared: { catalog: BundleCatalog; testSet: ScenarioTestSet } | undefined;

/** The build's catalog and test set, read once per test file. */
export function build(): { catalog: BundleCatalog; testSet: ScenarioTestSet } {
  shared ??= (() => {
    const catalog = loadBundleCatalog();
    return { catalog, testSet: loadScenarioTestSet(catalog.root) };
  })();
  return shared;
}

/** The manifest hash of a version. */
export const hashOf = (version: string) => build().catalog.find(version)!.manifest.bundleHash;

/** When the fixture's runs start: a day before the intake's clock (a run cannot come from the future). */
export const RUN_CLOCK_START = Date.UTC(2026, 8, 19);

/** A real run with the offline analyst (k repetitions of the given families, default the manifest's). */
export function offlineRun(
  version: string,
  repetitions = 1,
  families?: string[],
): Promise<EvaluationRunRecord> {
  const { catalog, testSet } = build();
  return runBundleEvaluation({
    catalog,
    testSet,
    version,
    model: new OfflineAnalyst(),
    repetitions,
    families,
    escalationConfidence: 0.7,
    timeouts: { L1: 5_000, L2: 20_000 },
    clock: new ManualClock(RUN_CLOCK_START),
  });
}

/** An intake over a fresh in-memory ledger, with its audit sink and clock (and the host's policy sets, if given). */
export function intakeStack(policySets?: PolicySetSource) {
  const ledger = new InMemoryReleaseEvidenceLedger();
  const clock = new ManualClock(Date.UTC(2026, 8, 20));
  const audit = new InMemoryAuditSink(100, clock);
  const { catalog, testSet } = build();
  const intake = new LedgerEvidenceIntake({ ledger, catalog, audit, clock, testSet, policySets });
  return { ledger, audit, clock, intake };
}

/** A registry row of `version` as start-up registration writes it (artifact hash: the manifest's). */
export function releaseRow(version: string, artifactHash = hashOf(version)): ReleaseRow {
  const manifest = build().catalog.find(version)!.manifest;
  return {
    registryScope: "PLATFORM_GLOBAL",
    promptKey: PROMPT_KEY,
    templateKey: manifest.descriptor.templateKey,
    promptVersion: version,
    status: "AVAILABLE",
    contractVersion: manifest.descriptor.contractVersion,
    artifactHash,
    rollbackTargets: manifest.rollbackTargets,
    registeredAt: 0,
    updatedAt: 0,
  };
}

/** Valid content of every kind but EVALUATION_RUN, for `version` (B8 and profiles as its manifest has them). */
export function policyEvidence(version: string): Record<string, unknown> {
  const { catalog } = build();
  const entry = catalog.find(version)!;
  return {
    CHANGE_RECORD: { summary: "Dictionary blocks replace sections.", reference: "SEC-1234", risk: "MEDIUM" },
    MODEL_COMPATIBILITY: {
      profiles: entry.manifest.descriptor.supportedModelProfiles.map((profile) => ({
        profile,
        verdict: "COMPATIBLE",
      })),
    },
    BUDGET_PROFILE: { profiles: entry.bundle!.budgets.map((p) => ({ ...p })) },
    TOKEN_COUNTING_POLICY: {
      encoding: "o200k_base",
      headroomPercent: 10,
      rationale: "Budgets are counted as OpenAI counts them.",
    },
    CACHE_POLICY: { mode: "NONE", rationale: "Every decision is made afresh." },
    COMPACTION_POLICY: {
      strategy: entry.manifest.layout === "v19-sections" ? "CUT_SECTIONS_BY_PRIORITY" : "DROP_PAST_RECORDS",
      rationale: "What the layout cuts over budget.",
    },
  };
}
