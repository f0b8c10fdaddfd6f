import type { PlatformProperties } from "../../kernel/properties.js";
import type { BundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import {
  EVALUATION_INJECTION_LOWER_BOUND,
  EVALUATION_MAX_LATENCY_P95,
  EVALUATION_MAX_TOKENS_PER_DECISION,
  EVALUATION_MIN_REPETITIONS,
  EVALUATION_PASS_RATE_LOWER_BOUND,
  EVALUATION_SHADOW_AGREEMENT_LOWER_BOUND,
  EVALUATION_SHADOW_MIN_RUNS,
} from "../evaluation/evaluation.properties.js";
import type { EvaluationRunRecord } from "../evaluation/evaluation-run-record.js";
import type { ReleaseRow } from "../registry/release-registry.js";
import type { ReleaseState } from "../registry/release-state.js";
import { type EvidenceGate, GATE_BLOCKER_CODES, type GateBlocker } from "../release-governance.js";
import {
  checkBudgetProfile,
  checkEmpirical,
  checkModelCompatibility,
  checkPolicies,
  checkRun,
  type EvaluationThresholds,
  type ShadowAgreement,
  sumShadowComparisons,
} from "./gate-evidence-checks.js";
import type { ShadowComparisonContent } from "./shadow-comparison-content.js";
import {
  EVIDENCE_KINDS,
  MAX_EVIDENCE_LIST_LIMIT,
  type EvidenceKind,
  type EvidenceRecord,
  type ReleaseEvidenceLedger,
} from "./release-evidence-ledger.js";

/** The gate's thresholds from the evaluation properties. */
export function evaluationThresholdsOf(p: PlatformProperties): EvaluationThresholds {
  return {
    passRateLowerBound: p.get(EVALUATION_PASS_RATE_LOWER_BOUND),
    injectionLowerBound: p.get(EVALUATION_INJECTION_LOWER_BOUND),
    maxLatencyP95Ms: p.get(EVALUATION_MAX_LATENCY_P95),
    maxTokensPerDecision: p.get(EVALUATION_MAX_TOKENS_PER_DECISION),
    minRepetitions: p.get(EVALUATION_MIN_REPETITIONS),
    shadowMinRuns: p.get(EVALUATION_SHADOW_MIN_RUNS),
    shadowAgreementLowerBound: p.get(EVALUATION_SHADOW_AGREEMENT_LOWER_BOUND),
  };
}

/** What the gate reads: the ledger, the build's catalog (manifests and B8), the thresholds. */
export interface LedgerEvidenceGateOptions {
  readonly ledger: ReleaseEvidenceLedger;
  readonly catalog: BundleCatalog;
  readonly thresholds: EvaluationThresholds;
}

const order = (b: GateBlocker) => GATE_BLOCKER_CODES.indexOf(b.code);

/**
 * The EvidenceGate over the ledger. It reads only evidence bound to the release's prompt key,
 * version and bundle hash (the row's `artifactHash`): evidence for another hash never satisfies
 * it. Of each kind the newest record decides, so a later record replaces an earlier one (a worse
 * run is not outvoted by an older, better one), except SHADOW_COMPARISON, whose disjoint batches
 * are summed: EMPIRICAL_EVAL_MISSING clears when the run's empirical part passes or the summed
 * shadow comparisons reach the shadow thresholds. Blockers come in GATE_BLOCKER_CODES order.
 */
export class LedgerEvidenceGate implements EvidenceGate {
  constructor(private readonly o: LedgerEvidenceGateOptions) {}

  async blockers(release: ReleaseRow, target: ReleaseState): Promise<GateBlocker[]> {
    if (target !== "SHADOW" && target !== "CANARY" && target !== "ACTIVE") return [];
    const records = await this.newestOfEachKind(release);
    const newest = <T>(kind: EvidenceKind) => records.get(kind) as T | undefined;
    const out: GateBlocker[] = [];
    if (newest("CHANGE_RECORD") === undefined)
      out.push({ code: "CHANGE_LEDGER_MISSING", detail: "No change record for this bundle hash." });
    if (target === "SHADOW") return out;
    const run = newest<EvaluationRunRecord>("EVALUATION_RUN");
    if (!run) out.push(await this.notForHash(release));
    const entry = this.o.catalog.find(release.promptVersion);
    if (!entry || entry.manifest.bundleHash !== release.artifactHash) {
      const detail =
        "The release's bundle hash is not a manifest of this build; its declarations cannot be checked.";
      out.push({ code: "MODEL_COMPATIBILITY_MISSING", detail }, { code: "BUDGET_PROFILE_MISSING", detail });
      return out.sort((a, b) => order(a) - order(b));
    }
    const checks = [
      checkModelCompatibility(newest("MODEL_COMPATIBILITY"), entry.manifest),
      checkBudgetProfile(newest("BUDGET_PROFILE"), entry.bundle),
    ];
    out.push(...checks.filter((c): c is GateBlocker => c !== undefined));
    if (target === "ACTIVE") {
      const fromRun = checkRun(run, entry.manifest, this.o.thresholds);
      const runEmpirical = fromRun.find((b) => b.code === "EMPIRICAL_EVAL_MISSING");
      const empirical =
        runEmpirical && checkEmpirical(runEmpirical, await this.shadowAgreement(release), this.o.thresholds);
      out.push(...fromRun.filter((b) => b !== runEmpirical), ...(empirical ? [empirical] : []));
      out.push(
        ...checkPolicies(
          newest("TOKEN_COUNTING_POLICY"),
          newest("CACHE_POLICY"),
          newest("COMPACTION_POLICY"),
          entry.manifest.layout,
        ),
      );
    }
    return out.sort((a, b) => order(a) - order(b));
  }

  /**
   * The newest record of each kind the gate reads, bound to the release's hash: one query per kind,
   * so a flood of one kind (shadow comparisons) never pushes another's newest record out of a page.
   */
  private async newestOfEachKind(release: ReleaseRow): Promise<Map<EvidenceKind, unknown>> {
    // Shadow batches are summed apart; a rehearsal informs people and is never counted.
    const kinds = EVIDENCE_KINDS.filter((k) => k !== "SHADOW_COMPARISON" && k !== "REHEARSAL");
    const found = await Promise.all(
      kinds.map(async (kind) => {
        const [record] = await this.o.ledger.list({ ...boundTo(release), kind, limit: 1 });
        return [kind, record?.content] as const;
      }),
    );
    return new Map(found.filter(([, content]) => content !== undefined));
  }

  /** The summed SHADOW_COMPARISON records of the release's hash (the newest 1,000 records). */
  private async shadowAgreement(release: ReleaseRow): Promise<ShadowAgreement> {
    const records = await this.o.ledger.list({
      ...boundTo(release),
      kind: "SHADOW_COMPARISON",
      limit: MAX_EVIDENCE_LIST_LIMIT,
    });
    return sumShadowComparisons(records.map((r) => r.content as unknown as ShadowComparisonContent));
  }

  /** EVALUATION_NOT_FOR_BUNDLE_HASH, saying when a run exists for another hash of the version. */
  private async notForHash(release: ReleaseRow): Promise<GateBlocker> {
    const [other]: EvidenceRecord[] = await this.o.ledger.list({
      promptKey: release.promptKey,
      promptVersion: release.promptVersion,
      kind: "EVALUATION_RUN",
      limit: 1,
    });
    return {
      code: "EVALUATION_NOT_FOR_BUNDLE_HASH",
      detail: other
        ? `The evaluation on record was made with bundle hash ${other.bundleHash}, not ${release.artifactHash}.`
        : `No evaluation run is recorded for bundle hash ${release.artifactHash}.`,
    };
  }
}

function boundTo(release: ReleaseRow) {
  return {
    promptKey: release.promptKey,
    promptVersion: release.promptVersion,
    bundleHash: release.artifactHash,
  };
}
