import { defineProperty, type PlatformProperties, prop } from "../../kernel/properties.js";

/** An Enterprise installation keeps sealed packages in its own schema: nothing is sealed here. */
export const ENTERPRISE_ENABLED = defineProperty({
  key: "platform.enterprise.enabled",
  schema: prop.bool(),
  default: false,
  description: "true: an Enterprise installation; the OSS sealed evidence (and the inspector) are off.",
});

/** Seal decisions (OSS only). */
export const SEALED_EVIDENCE_CAPTURE_ENABLED = defineProperty({
  key: "platform.pqa.oss.sealed-evidence.capture-enabled",
  schema: prop.bool(),
  default: true,
  description: "Seal decisions (OSS only): prompts as sent, the context and the metadata, hash-chained.",
});

/** Share sealed after the window. */
export const SEALED_EVIDENCE_SAMPLE_PERCENT = defineProperty({
  key: "platform.pqa.oss.sealed-evidence.sample-percent",
  schema: prop.int(1, 100),
  default: 1,
  description:
    "Share of decisions sealed after the window, by a stable hash of the correlation id (1 to 100).",
});

/** Decisions sealed in full after a start or a bundle change. */
export const SEALED_EVIDENCE_FULL_CAPTURE = defineProperty({
  key: "platform.pqa.oss.sealed-evidence.full-capture-after-change",
  schema: prop.int(0, 1_000_000),
  default: 1000,
  description: "Decisions sealed in full after a start or a bundle change (per instance).",
});

/** Run the retention jobs. */
export const SEALED_EVIDENCE_RETENTION_ENABLED = defineProperty({
  key: "platform.pqa.oss.sealed-evidence.retention.enabled",
  schema: prop.bool(),
  default: true,
  description: "Run the retention jobs (hourly, one instance at a time).",
});

/** Keep time of a sealed package. */
export const SEALED_EVIDENCE_RETENTION_PERIOD = defineProperty({
  key: "platform.pqa.oss.sealed-evidence.retention.period",
  schema: prop.duration().refine((ms) => ms >= 86_400_000, "must be at least 1d"),
  default: 90 * 86_400_000,
  description: "Keep time of a sealed package (and of a decision record).",
});

/** Keep time of a package whose latest inspection found nothing wrong. */
export const SEALED_EVIDENCE_RETENTION_CLEAN_PERIOD = defineProperty({
  key: "platform.pqa.oss.sealed-evidence.retention.clean-period",
  schema: prop.duration().refine((ms) => ms >= 86_400_000, "must be at least 1d"),
  default: 30 * 86_400_000,
  description: "Keep time of a package whose latest inspection found nothing wrong (at most the period).",
});

/** Every property of the sealed evidence, for the plugin's list. */
export const SEALED_EVIDENCE_PROPERTIES = [
  ENTERPRISE_ENABLED,
  SEALED_EVIDENCE_CAPTURE_ENABLED,
  SEALED_EVIDENCE_SAMPLE_PERCENT,
  SEALED_EVIDENCE_FULL_CAPTURE,
  SEALED_EVIDENCE_RETENTION_ENABLED,
  SEALED_EVIDENCE_RETENTION_PERIOD,
  SEALED_EVIDENCE_RETENTION_CLEAN_PERIOD,
];

/** The sealed evidence's settings, read once. */
export interface SealedEvidenceSettings {
  readonly captureEnabled: boolean;
  readonly samplePercent: number;
  readonly fullCaptureAfterChange: number;
  readonly retentionEnabled: boolean;
  readonly periodMs: number;
  readonly cleanPeriodMs: number;
}

/** Reads the settings; the clean period never exceeds the period. */
export function sealedEvidenceSettings(properties: PlatformProperties): SealedEvidenceSettings {
  const periodMs = properties.get(SEALED_EVIDENCE_RETENTION_PERIOD);
  return {
    captureEnabled: properties.get(SEALED_EVIDENCE_CAPTURE_ENABLED) && !properties.get(ENTERPRISE_ENABLED),
    samplePercent: properties.get(SEALED_EVIDENCE_SAMPLE_PERCENT),
    fullCaptureAfterChange: properties.get(SEALED_EVIDENCE_FULL_CAPTURE),
    retentionEnabled: properties.get(SEALED_EVIDENCE_RETENTION_ENABLED),
    periodMs,
    cleanPeriodMs: Math.min(periodMs, properties.get(SEALED_EVIDENCE_RETENTION_CLEAN_PERIOD)),
  };
}
