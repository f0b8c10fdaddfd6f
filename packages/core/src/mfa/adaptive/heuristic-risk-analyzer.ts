import type { RiskAnalyzer, RiskAssessment, RiskInput, RiskSignal } from "./risk-analyzer.js";
import { networkOf } from "./sign-in-history.js";

/**
 * The weights of HeuristicRiskAnalyzer. They are chosen so that, with the default thresholds
 * (skip 0.3, optional 0.5, required 0.7, strict 0.9):
 * - a known device on a new network (0.25) or at an unusual hour (0.15) passes without MFA;
 * - a new device alone (0.35) is "optional" and passes; new device and new network (0.6) is challenged;
 * - failures push any of those up a band, and a new device on a new network after 5 failures (1.0)
 *   reaches strict (administrator review).
 */
export const HEURISTIC_WEIGHTS = Object.freeze({
  /**
   * `new-device`: no verified device cookie (the `X-Device-Id` hint does not count), or one not among
   * the user's known devices.
   */
  newDevice: 0.35,
  /** `new-network`: the /24 (IPv4) or /64 (IPv6) is not among the user's known networks. */
  newNetwork: 0.25,
  /** `failed-attempts`: per failed primary sign-in in the last 15 minutes... */
  perFailure: 0.08,
  /** ...counting at most this many (so at most 0.4). */
  maxFailures: 5,
  /** `unusual-hour`: the UTC hour is not one the user signed in at, once there are enough sign-ins. */
  unusualHour: 0.15,
  /** Sign-ins needed before `unusual-hour` is trusted. */
  minSignInsForHours: 3,
  /** `no-history`: the user never completed a sign-in; replaces device, network and hour signals. */
  noHistory: 0.5,
});

/** The analyzer name in assessments. */
export const HEURISTIC_ANALYZER_NAME = "heuristic";

/**
 * The built-in, deterministic RiskAnalyzer: four rules over the sign-in history, no network, no
 * model, no randomness, so the adaptive path works offline and tests are exact. The score is the sum
 * of the signal weights (`HEURISTIC_WEIGHTS`), rounded to 4 decimals (so 0.35 + 0.25 is 0.6, not
 * 0.59999...) and clamped to [0, 1].
 *
 * A user without any recorded sign-in gets `no-history` (0.5) instead of the device, network and hour
 * signals, which would all fire and say nothing. Failed attempts still add on top: a first sign-in
 * after a run of failed guesses is exactly what the velocity rule is for.
 */
export class HeuristicRiskAnalyzer implements RiskAnalyzer {
  async analyze(input: RiskInput): Promise<RiskAssessment> {
    const w = HEURISTIC_WEIGHTS;
    const { history } = input;
    const signals: RiskSignal[] = [];
    if (history.signInCount === 0) {
      signals.push({ name: "no-history", weight: w.noHistory, detail: "first recorded sign-in" });
    } else {
      if (input.deviceId === undefined) {
        // The client's X-Device-Id (input.deviceHint) is never trusted to make a device known.
        signals.push({ name: "new-device", weight: w.newDevice, detail: "no device cookie" });
      } else if (!history.knownDevices.includes(input.deviceId)) {
        signals.push({ name: "new-device", weight: w.newDevice, detail: "device not seen before" });
      }
      const network = networkOf(input.remoteAddress);
      if (network === undefined || !history.knownNetworks.includes(network)) {
        signals.push({
          name: "new-network",
          weight: w.newNetwork,
          detail: network === undefined ? "address is not an IP" : `network ${network} not seen before`,
        });
      }
      const hour = new Date(input.at).getUTCHours();
      if (history.signInCount >= w.minSignInsForHours && !history.usualHours.includes(hour)) {
        signals.push({ name: "unusual-hour", weight: w.unusualHour, detail: `${hour}:00 UTC` });
      }
    }
    const failures = Math.min(Math.max(0, Math.floor(history.recentFailures)), w.maxFailures);
    if (failures > 0) {
      signals.push({
        name: "failed-attempts",
        weight: round(failures * w.perFailure),
        detail: `${history.recentFailures} failed sign-ins in 15 minutes`,
      });
    }
    const sum = signals.reduce((total, s) => total + s.weight, 0);
    return { score: Math.min(1, Math.max(0, round(sum))), signals, analyzer: HEURISTIC_ANALYZER_NAME };
  }
}

function round(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
