import type { Clock } from "../../kernel/clock.js";
import type { Logger } from "../../kernel/logger.js";
import { canonicalJson, type JsonValue, sha256Hex } from "../../prompts/hashing/canonical-json.js";
import type { ReleaseEvidenceLedger } from "../evidence/release-evidence-ledger.js";
import { shadowComparisonSchema } from "../evidence/shadow-comparison-content.js";
import { type ComparisonBatch, comparisonContent } from "./shadow-comparison-batches.js";

/** Who SHADOW_COMPARISON records are recorded by (never an administrator's name). */
export const SHADOW_RECORDER = "system:shadow";

/** What the recorder writes with. */
export interface ShadowComparisonRecorderOptions {
  readonly ledger: ReleaseEvidenceLedger;
  readonly clock: Clock;
  readonly logger: Logger;
  /** This instance's name (`platform.instance.id`), written into each record. */
  readonly instanceId: string;
}

/**
 * Writes a batch of shadow comparisons into the release evidence ledger as one SHADOW_COMPARISON
 * record bound to the SHADOW release's prompt key, version and bundle hash, with its content hash
 * (SHA-256 of the canonical JSON, as the intake writes). The content is checked against the kind's
 * schema first, as the intake checks what an administrator submits.
 */
export class ShadowComparisonRecorder {
  constructor(private readonly o: ShadowComparisonRecorderOptions) {}

  /**
   * Records `batch`; false (logged) when the ledger failed, so the caller keeps the runs for the next
   * batch. A batch that does not fit the schema (a defect) is dropped, logged as an error.
   */
  async record(batch: ComparisonBatch): Promise<boolean> {
    if (batch.runs.length === 0) return true;
    const parsed = shadowComparisonSchema.safeParse(comparisonContent(this.o.instanceId, batch.runs));
    if (!parsed.success) {
      // Not a batch to keep retrying: it would never pass. Dropped, loudly.
      this.o.logger.error("shadow comparison batch does not fit its schema; dropped", {
        promptVersion: batch.bundle.promptVersion,
        runs: batch.runs.length,
        issues: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".")}: ${i.message}`),
      });
      return true;
    }
    const content = parsed.data;
    try {
      await this.o.ledger.record({
        kind: "SHADOW_COMPARISON",
        promptKey: batch.bundle.promptKey,
        promptVersion: batch.bundle.promptVersion,
        bundleHash: batch.bundle.bundleHash,
        recordedBy: SHADOW_RECORDER,
        recordedAt: this.o.clock.now(),
        content,
        contentHash: sha256Hex(canonicalJson(content as unknown as JsonValue)),
      });
      return true;
    } catch (error) {
      this.o.logger.warn("shadow comparison not recorded; its runs wait for the next batch", {
        promptVersion: batch.bundle.promptVersion,
        runs: batch.runs.length,
        error: (error as { code?: string }).code ?? (error instanceof Error ? error.name : typeof error),
      });
      return false;
    }
  }
}
