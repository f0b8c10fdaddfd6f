import { z } from "zod";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import { canonicalJson, type JsonValue, sha256Hex } from "../../prompts/hashing/canonical-json.js";
import type { BundleCatalog, CatalogEntry } from "../../prompts/manifest/bundle-catalog.js";
import type { EvaluationRunRecord } from "../evaluation/evaluation-run-record.js";
import { runRecordInconsistencies } from "../evaluation/evaluation-record-check.js";
import { offlineAnalystReplayReasons } from "../evaluation/offline-analyst-replay.js";
import type { PolicySetSource } from "../policy-sets/policy-set-hash.js";
import { loadScenarioTestSet, type ScenarioTestSet } from "../evaluation/scenario-family.js";
import type { EvidenceIntake, EvidenceSubmission, GovernanceActor } from "../release-governance.js";
import { EVIDENCE_CONTENT_SCHEMAS, MAX_EVIDENCE_CONTENT_CHARS } from "./evidence-kind-schemas.js";
import { evidenceLine, sha256Field } from "./evidence-text.js";
import {
  EVIDENCE_KINDS,
  type EvidenceRecord,
  type ReleaseEvidenceLedger,
} from "./release-evidence-ledger.js";

/** The audit event of recorded evidence, and of refused evidence (outcome failure, with the code). */
export const EVIDENCE_AUDIT_EVENT = "prompt-quality.evidence.recorded";
const MAX_ISSUES = 20;

const submissionSchema = z.strictObject({
  kind: z.enum(EVIDENCE_KINDS),
  promptKey: evidenceLine(128),
  promptVersion: evidenceLine(64),
  bundleHash: sha256Field,
  content: z.unknown(),
});

/** What the intake needs: the ledger it writes, the build's catalog, the audit trail and the clock. */
export interface LedgerEvidenceIntakeOptions {
  readonly ledger: ReleaseEvidenceLedger;
  readonly catalog: BundleCatalog;
  readonly audit: AuditSink;
  readonly clock: Clock;
  /** The build's scenario test set; default read from the catalog's root on first use. */
  readonly testSet?: ScenarioTestSet | undefined;
  /** The host's policy sets; absent on a host without them (a run record's `policySetHash` is then refused). */
  readonly policySets?: PolicySetSource | undefined;
}

const invalid = (issues: string[]) =>
  new PlatformError("EVIDENCE_INVALID", "The evidence does not have its kind's shape", {
    details: { issues: issues.slice(0, MAX_ISSUES) },
  });

function parseContent(submission: EvidenceSubmission): Record<string, unknown> {
  let size: number;
  try {
    size = canonicalJson(submission.content as JsonValue).length;
  } catch {
    throw invalid(["content: not a JSON value"]);
  }
  const max = MAX_EVIDENCE_CONTENT_CHARS[submission.kind];
  if (size > max) throw invalid([`content: ${size} characters of canonical JSON, at most ${max}`]);
  const parsed = EVIDENCE_CONTENT_SCHEMAS[submission.kind].safeParse(submission.content);
  if (!parsed.success)
    throw invalid(parsed.error.issues.map((i) => `content.${i.path.join(".") || "(content)"}: ${i.message}`));
  return parsed.data as Record<string, unknown>;
}

/**
 * The EvidenceIntake over the ledger: checks the submission and its kind's schema
 * (EVIDENCE_INVALID), binds it to a bundle this build runs and that bundle's manifest hash (a hash
 * that is not the manifest's is EVIDENCE_INVALID, or EVALUATION_RECORD_INCONSISTENT for a run),
 * checks a run record against the build's test set, its own cases, the clock and the host's policy
 * set hash, and replays a run of the built-in offline analyst, then records it under the
 * actor with its content hash (SHA-256 of RFC 8785 canonical JSON) and audits it. A refusal is
 * audited too, with its code: an inconsistent run record is worth a look.
 */
export class LedgerEvidenceIntake implements EvidenceIntake {
  private testSet: ScenarioTestSet | undefined;

  constructor(private readonly o: LedgerEvidenceIntakeOptions) {
    this.testSet = o.testSet;
  }

  async submit(submission: EvidenceSubmission, actor: GovernanceActor): Promise<EvidenceRecord> {
    try {
      const record = await this.accept(submission, actor);
      this.audit(actor, "success", {
        id: record.id,
        kind: record.kind,
        promptVersion: record.promptVersion,
        bundleHash: record.bundleHash,
        contentHash: record.contentHash,
      });
      return record;
    } catch (error) {
      if (
        isPlatformError(error, "EVIDENCE_INVALID") ||
        isPlatformError(error, "EVALUATION_RECORD_INCONSISTENT")
      )
        this.audit(actor, "failure", { code: error.code, ...this.named(submission) });
      throw error;
    }
  }

  async list(promptKey: string, promptVersion?: string): Promise<EvidenceRecord[]> {
    return this.o.ledger.list({ promptKey, promptVersion, limit: 100 });
  }

  private async accept(raw: EvidenceSubmission, actor: GovernanceActor): Promise<EvidenceRecord> {
    const shape = submissionSchema.safeParse(raw);
    if (!shape.success) throw invalid(shape.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
    const submission = shape.data as EvidenceSubmission;
    // Shadow comparisons count toward the empirical check: only the runner's own batches may.
    if (submission.kind === "SHADOW_COMPARISON")
      throw invalid(["kind: SHADOW_COMPARISON is recorded by the shadow runner only, never submitted"]);
    // A rehearsal's counts are the server's own re-render of sealed contexts, never a claim.
    if (submission.kind === "REHEARSAL")
      throw invalid(["kind: REHEARSAL is recorded by the server that rehearsed, never submitted"]);
    const entry = this.runnableEntry(submission);
    const content = parseContent(submission);
    const manifestHash = entry.manifest.bundleHash;
    if (submission.kind === "EVALUATION_RUN") {
      const reasons = await this.runReasons(submission, content as EvaluationRunRecord, manifestHash);
      if (reasons.length)
        throw new PlatformError(
          "EVALUATION_RECORD_INCONSISTENT",
          "The evaluation run record does not hold together",
          { details: { reasons } },
        );
    } else if (submission.bundleHash !== manifestHash)
      throw invalid([`bundleHash: not the manifest's hash of ${submission.promptVersion} (${manifestHash})`]);
    return this.o.ledger.record({
      kind: submission.kind,
      promptKey: submission.promptKey,
      promptVersion: submission.promptVersion,
      bundleHash: submission.bundleHash,
      recordedBy: actor.username,
      recordedAt: this.o.clock.now(),
      content,
      contentHash: sha256Hex(canonicalJson(content as JsonValue)),
    });
  }

  /**
   * Why a run record does not hold: its own consistency, then (only when it holds together) its
   * policy set hash against the host's current one and, for the offline analyst, a replay.
   */
  private async runReasons(
    submission: EvidenceSubmission,
    record: EvaluationRunRecord,
    manifestHash: string,
  ): Promise<string[]> {
    const testSet = this.scenarios();
    const reasons = runRecordInconsistencies(record, {
      testSet,
      promptKey: submission.promptKey,
      promptVersion: submission.promptVersion,
      bundleHash: manifestHash,
      now: this.o.clock.now(),
    });
    if (submission.bundleHash !== manifestHash)
      reasons.unshift(
        `the submission's bundleHash is not the manifest's hash of ${submission.promptVersion} (${manifestHash})`,
      );
    if (reasons.length) return reasons;
    const policy = await this.policySetReasons(record);
    if (policy.length) return policy;
    return offlineAnalystReplayReasons(record, { catalog: this.o.catalog, testSet });
  }

  /** A recorded policy set hash must be the host's current one; a host without policy sets takes none. */
  private async policySetReasons(record: EvaluationRunRecord): Promise<string[]> {
    if (record.policySetHash === undefined) return [];
    if (!this.o.policySets) return ["policySetHash is given, but this host has no policy sets"];
    const current = await this.o.policySets.currentHash();
    return record.policySetHash === current
      ? []
      : [`policySetHash is not this host's current policy set hash (${current})`];
  }

  /** The catalog entry of a bundle this build runs: evidence moves a release forward, and a record never moves. */
  private runnableEntry(s: EvidenceSubmission): CatalogEntry {
    const entry = this.o.catalog.find(s.promptVersion);
    if (!entry?.bundle || entry.manifest.descriptor.promptKey !== s.promptKey)
      throw invalid([`promptVersion: ${s.promptKey} ${s.promptVersion} is not a bundle this build runs`]);
    return entry;
  }

  private scenarios(): ScenarioTestSet {
    this.testSet ??= loadScenarioTestSet(this.o.catalog.root);
    return this.testSet;
  }

  private named(s: EvidenceSubmission): Record<string, unknown> {
    const shape = submissionSchema.safeParse(s);
    return shape.success ? { kind: s.kind, promptVersion: s.promptVersion, bundleHash: s.bundleHash } : {};
  }

  private audit(actor: GovernanceActor, outcome: "success" | "failure", data: Record<string, unknown>): void {
    this.o.audit.record({
      type: EVIDENCE_AUDIT_EVENT,
      principal: actor.username,
      outcome,
      ...(actor.correlationId ? { correlationId: actor.correlationId } : {}),
      ...(actor.remoteAddress ? { remoteAddress: actor.remoteAddress } : {}),
      data,
    });
  }
}
