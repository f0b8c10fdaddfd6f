import { PlatformError } from "../../kernel/platform-error.js";
import { defineProperty, type PlatformProperties, prop } from "../../kernel/properties.js";

/**
 * Where a risk score changes the adaptive decision; each a number in [0, 1] and
 * `skip <= optional <= required <= strict` (an equal pair collapses the band between them).
 */
export interface RiskThresholds {
  /** Below: checks may be skipped. */
  readonly skip: number;
  /** From here: extra verification is warranted (the adaptive policy challenges). */
  readonly optional: number;
  /** From here: verification is mandatory. */
  readonly required: number;
  /** From here: strict measures (the adaptive policy escalates to administrator review). */
  readonly strict: number;
}

/** The defaults of `security.zerotrust.thresholds.*` (docs/properties.md). */
export const RISK_THRESHOLDS_DEFAULTS: RiskThresholds = Object.freeze({
  skip: 0.3,
  optional: 0.5,
  required: 0.7,
  strict: 0.9,
});

/** The default analyzer time budget in milliseconds. */
export const MFA_ADAPTIVE_TIMEOUT_DEFAULT_MS = 1_500;

/** Score below which checks may be skipped. */
export const ZEROTRUST_THRESHOLD_SKIP = defineProperty({
  key: "security.zerotrust.thresholds.skip",
  schema: prop.number(0, 1),
  default: RISK_THRESHOLDS_DEFAULTS.skip,
  description:
    "Risk score (0..1) below which a sign-in needs no MFA under AIAdaptiveMfaPolicyProvider. Must be <= " +
    "optional.",
});

/** Score from which optional extra verification applies. */
export const ZEROTRUST_THRESHOLD_OPTIONAL = defineProperty({
  key: "security.zerotrust.thresholds.optional",
  schema: prop.number(0, 1),
  default: RISK_THRESHOLDS_DEFAULTS.optional,
  description:
    "Risk score (0..1) from which AIAdaptiveMfaPolicyProvider challenges for a second factor; scores " +
    "between skip and this pass without MFA (reason 'optional: low risk'). skip <= optional <= required.",
});

/** Score from which verification is mandatory. */
export const ZEROTRUST_THRESHOLD_REQUIRED = defineProperty({
  key: "security.zerotrust.thresholds.required",
  schema: prop.number(0, 1),
  default: RISK_THRESHOLDS_DEFAULTS.required,
  description:
    "Risk score (0..1) from which a second factor is mandatory (CHALLENGED, reason 'required'). " +
    "optional <= required <= strict.",
});

/** Score from which strict measures apply. */
export const ZEROTRUST_THRESHOLD_STRICT = defineProperty({
  key: "security.zerotrust.thresholds.strict",
  schema: prop.number(0, 1),
  default: RISK_THRESHOLDS_DEFAULTS.strict,
  description:
    "Risk score (0..1) from which AIAdaptiveMfaPolicyProvider answers ESCALATED: the login waits for " +
    "administrator review. Must be >= required.",
});

/** The time budget of the RiskAnalyzer. */
export const MFA_ADAPTIVE_TIMEOUT = defineProperty({
  key: "platform.auth.mfa.adaptive.timeoutMs",
  schema: prop.duration().refine((ms) => ms >= 1 && ms <= 60_000, "must be between 1ms and 60s"),
  default: MFA_ADAPTIVE_TIMEOUT_DEFAULT_MS,
  description:
    "How long AIAdaptiveMfaPolicyProvider waits for the sign-in history and the RiskAnalyzer before it " +
    "falls back to DefaultMfaPolicyProvider (event mfa.adaptive.fallback, reason timeout). e.g. 1500, PT2S.",
});

/** Every adaptive MFA property, for a plugin's `properties` list. */
export const ADAPTIVE_PROPERTIES = [
  ZEROTRUST_THRESHOLD_SKIP,
  ZEROTRUST_THRESHOLD_OPTIONAL,
  ZEROTRUST_THRESHOLD_REQUIRED,
  ZEROTRUST_THRESHOLD_STRICT,
  MFA_ADAPTIVE_TIMEOUT,
] as const;

const ORDER = [
  ["skip", ZEROTRUST_THRESHOLD_SKIP.key],
  ["optional", ZEROTRUST_THRESHOLD_OPTIONAL.key],
  ["required", ZEROTRUST_THRESHOLD_REQUIRED.key],
  ["strict", ZEROTRUST_THRESHOLD_STRICT.key],
] as const;

/**
 * Checks thresholds are in [0, 1] and increasing, throwing `PlatformError(code)` that names every
 * offending pair. The property system validates single keys, so the order is checked here.
 */
export function checkRiskThresholds(
  thresholds: RiskThresholds,
  code: "PROPERTY_INVALID" | "CONFIGURATION_INVALID" = "CONFIGURATION_INVALID",
): RiskThresholds {
  const problems: string[] = [];
  const keys = new Set<string>();
  for (const [name, key] of ORDER) {
    const value = thresholds[name];
    if (!Number.isFinite(value) || value < 0 || value > 1) {
      problems.push(`${key}=${value} must be a number between 0 and 1`);
      keys.add(key);
    }
  }
  for (let i = 1; i < ORDER.length; i++) {
    const [lowName, lowKey] = ORDER[i - 1]!;
    const [highName, highKey] = ORDER[i]!;
    if (thresholds[highName] < thresholds[lowName]) {
      problems.push(`${highKey}=${thresholds[highName]} must be >= ${lowKey}=${thresholds[lowName]}`);
      keys.add(lowKey).add(highKey);
    }
  }
  if (problems.length > 0) {
    throw new PlatformError(
      code,
      `Risk thresholds must satisfy skip <= optional <= required <= strict: ${problems.join("; ")}`,
      { details: { keys: [...keys], rule: "skip <= optional <= required <= strict", ...thresholds } },
    );
  }
  return Object.freeze({ ...thresholds });
}

/** Reads the thresholds from resolved properties; PROPERTY_INVALID naming the keys when out of order. */
export function riskThresholdsFromProperties(properties: PlatformProperties): RiskThresholds {
  return checkRiskThresholds(
    {
      skip: properties.get(ZEROTRUST_THRESHOLD_SKIP),
      optional: properties.get(ZEROTRUST_THRESHOLD_OPTIONAL),
      required: properties.get(ZEROTRUST_THRESHOLD_REQUIRED),
      strict: properties.get(ZEROTRUST_THRESHOLD_STRICT),
    },
    "PROPERTY_INVALID",
  );
}

/**
 * The band a score falls in: `skip` (< skip), `optional` (< optional), `elevated` (< required),
 * `required` (< strict), `strict` (>= strict). Each threshold is the first score of the band above it.
 */
export type RiskBand = "skip" | "optional" | "elevated" | "required" | "strict";

/** The band of `score` (assumed in [0, 1]) under `thresholds`. */
export function riskBandOf(score: number, thresholds: RiskThresholds): RiskBand {
  if (score < thresholds.skip) return "skip";
  if (score < thresholds.optional) return "optional";
  if (score < thresholds.required) return "elevated";
  if (score < thresholds.strict) return "required";
  return "strict";
}
