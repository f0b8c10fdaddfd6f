import type { RiskAssessment, RiskSignal } from "./risk-analyzer.js";

const MAX_SIGNALS = 32;
const MAX_TEXT = 200;

/**
 * The analyzer's answer when its score is a finite number in [0, 1], else undefined. The rest is
 * untrusted text headed for logs and reasons, so it is trimmed: malformed signals are dropped, names
 * and details cut to 200 characters, at most 32 signals kept.
 */
export function validRiskAssessment(answer: unknown): RiskAssessment | undefined {
  if (typeof answer !== "object" || answer === null) return undefined;
  const { score, signals, analyzer } = answer as Record<string, unknown>;
  if (typeof score !== "number" || !Number.isFinite(score) || score < 0 || score > 1) return undefined;
  const kept: RiskSignal[] = [];
  for (const s of Array.isArray(signals) ? signals : []) {
    if (kept.length === MAX_SIGNALS) break;
    if (typeof s !== "object" || s === null) continue;
    const { name, weight, detail } = s as Record<string, unknown>;
    if (typeof name !== "string" || name === "" || typeof weight !== "number" || !Number.isFinite(weight)) {
      continue;
    }
    kept.push(
      Object.freeze({
        name: name.slice(0, MAX_TEXT),
        weight,
        ...(typeof detail === "string" ? { detail: detail.slice(0, MAX_TEXT) } : {}),
      }),
    );
  }
  return Object.freeze({
    score,
    signals: Object.freeze(kept),
    analyzer: typeof analyzer === "string" && analyzer !== "" ? analyzer.slice(0, MAX_TEXT) : "unknown",
  });
}
