import type { PlatformProperties } from "../../kernel/properties.js";
import type { BundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import {
  EVALUATION_INJECTION_LOWER_BOUND,
  EVALUATION_MAX_LATENCY_P95,
  EVALUATION_MAX_TOKENS_PER_DECISION,
  EVALUATION_MIN_REPETITIONS,
  EVALUATION_PASS_RATE_LOWER_BOUND,
} from "../evaluation/evaluation.properties.js";
import type { EvaluationRunRecord } from "../evaluation/evaluation-run-record.js";
import type { ReleaseRow } from "../registry/release-registry.js";
import type { ReleaseState } from "../registry/release-state.js";
import { type EvidenceGate, GATE_BLOCKER_CODES, type GateBlocker } from "../release-governance.js";
import {
  checkBudgetProfile,
  checkModelCompatibility,
  checkPolicies,
  checkRun,
  type EvaluationThresholds,
} from "./gate-evidence-checks.js";
import {
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
 * run is not outvoted by an older, better one). Blockers come in GATE_BLOCKER_CODES order.
 */
export class LedgerEvidenceGate implements EvidenceGate {
  constructor(private readonly o: LedgerEvidenceGateOptions) {}

  async blockers(release: ReleaseRow, target: ReleaseState): Promise<GateBlocker[]> {
    if (target !== "SHADOW" && target !== "CANARY" && target !== "ACTIVE") return [];
    const records = await this.o.ledger.list({
      promptKey: release.promptKey,
      promptVersion: release.promptVersion,
      bundleHash: release.artifactHash,
      limit: MAX_EVIDENCE_LIST_LIMIT,
    });
    const newest = <T>(kind: EvidenceKind) => records.find((r) => r.kind === kind)?.content as T | undefined;
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
      out.push(...checkRun(run, entry.manifest, this.o.thresholds));
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
