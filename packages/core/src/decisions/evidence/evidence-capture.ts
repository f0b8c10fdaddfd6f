import { createHash } from "node:crypto";
import type { EvidencePackage } from "./evidence-package.js";

/** The capture rules' settings (the `platform.pqa.oss.sealed-evidence.*` properties). */
export interface EvidenceCaptureSettings {
  /** capture-enabled, and not an Enterprise installation. */
  readonly enabled: boolean;
  /** full-capture-after-change: decisions sealed in full after a start or a bundle change. */
  readonly fullCaptureAfterChange: number;
  /** sample-percent: share sealed after the window, 1..100. */
  readonly samplePercent: number;
}

/**
 * Which decisions are sealed: none when capture is off; every shadow run (they are sampled and capped
 * already); of the enforced decisions, the first `fullCaptureAfterChange` after the start and after
 * each change of the bundle hash, then those whose correlation id (the event id when there is none)
 * hashes below `samplePercent` (so every instance samples the same requests). The window is per process.
 */
export class EvidenceCapture {
  private remaining: number;
  private bundleHash: string | undefined;

  constructor(private readonly settings: EvidenceCaptureSettings) {
    this.remaining = settings.fullCaptureAfterChange;
  }

  /** True when `pkg` is to be sealed; counts it against the window. */
  decide(pkg: EvidencePackage): boolean {
    if (!this.settings.enabled) return false;
    if (pkg.metadata.stage === "SHADOW") return true;
    if (pkg.metadata.bundleHash !== this.bundleHash) {
      if (this.bundleHash !== undefined) this.remaining = this.settings.fullCaptureAfterChange;
      this.bundleHash = pkg.metadata.bundleHash;
    }
    if (this.remaining > 0) {
      this.remaining--;
      return true;
    }
    return sampleBucketOf(pkg.correlationId ?? pkg.eventId) < this.settings.samplePercent;
  }
}

/** A stable bucket 0..99 of `key`: the first 32 bits of its SHA-256, modulo 100. */
export function sampleBucketOf(key: string): number {
  return createHash("sha256").update(key, "utf8").digest().readUInt32BE(0) % 100;
}
