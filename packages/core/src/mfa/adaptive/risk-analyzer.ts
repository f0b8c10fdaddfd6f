import type { InjectionToken } from "tsyringe";
import type { SignInHistory } from "./sign-in-history.js";

/** What a RiskAnalyzer is asked about: one primary sign-in that just succeeded, and the user's past. */
export interface RiskInput {
  readonly userId: string;
  readonly username: string;
  /** The client address the HTTP binding saw (IPv4 or IPv6 text). */
  readonly remoteAddress: string;
  /**
   * The id of the caller's verified, server-issued device cookie, else undefined. Compare it with
   * `history.knownDevices`: it is the only device signal the client cannot choose.
   */
  readonly deviceId: string | undefined;
  /**
   * The client's well-formed `X-Device-Id` header: client-chosen, so a hint at most. It must never make
   * a device known (anyone can send any value); an analyzer may use it only to add risk.
   */
  readonly deviceHint?: string | undefined;
  /** The `User-Agent` header (at most 512 characters), else undefined. */
  readonly userAgent: string | undefined;
  /** When the sign-in happened, epoch milliseconds from the Clock. */
  readonly at: number;
  readonly history: SignInHistory;
}

/** One reason a sign-in looks risky, with its contribution to the score. */
export interface RiskSignal {
  /** A short kebab-case name (`new-device`); it appears in decision reasons, events and audit. */
  readonly name: string;
  /** Contribution to the score (0..1 for the built-in analyzer). */
  readonly weight: number;
  /** Operator-facing detail; never a secret. */
  readonly detail?: string;
}

/** A RiskAnalyzer's answer. */
export interface RiskAssessment {
  /** 0 (no risk) to 1 (certainly hostile). Anything else, NaN included, is refused as invalid. */
  readonly score: number;
  /** Why: the signals that made up the score, in any order. */
  readonly signals: readonly RiskSignal[];
  /** Which analyzer answered (`heuristic`, `my-model@3`), for audit and metrics. */
  readonly analyzer: string;
}

/**
 * The AI core of adaptive MFA: scores the risk of one sign-in. `AIAdaptiveMfaPolicyProvider` maps the
 * score to a decision with the `security.zerotrust.thresholds.*` properties and falls back to the
 * default provider when no analyzer is registered, or it is slow, throws or answers nonsense.
 *
 * ## Plugging a model-backed analyzer
 *
 * 1. Implement this interface and register it under the `RiskAnalyzer` token in your composition
 *    root, e.g. `container.register(RiskAnalyzer, { useValue: new MyModelAnalyzer(client) })`. The
 *    built-in `HeuristicRiskAnalyzer` is only used when registered the same way; with no analyzer
 *    registered every decision falls back to `DefaultMfaPolicyProvider` (fallback reason `absent`).
 * 2. Respect the time budget `platform.auth.mfa.adaptive.timeoutMs` (default 1500 ms, which also
 *    covers reading the sign-in history). Past it the provider stops waiting and falls back (reason
 *    `timeout`), and aborts the `signal` passed as second argument: hand it to `fetch` or your client
 *    so the call is cancelled instead of piling up. Keep your own client timeout below the budget.
 * 3. Return `{ score, signals, analyzer }`: `score` a finite number in [0, 1] (NaN, out-of-range or a
 *    non-number falls back with reason `invalid`); `signals` the features that drove the score, each
 *    `{ name, weight, detail? }`: the three heaviest are quoted in the decision's reason and all are
 *    published in the `mfa.adaptive.assessed` event, so operators can see why (malformed signals are
 *    dropped, at most 32 kept, text cut to 200 characters; never put secrets in them); `analyzer` a
 *    stable name with a version (`fraud-model@2024-06`).
 * 4. Throw (or reject) when the model cannot answer: the provider falls back (reason `error`) and logs
 *    the message. Do not answer a made-up low score instead; that would skip MFA silently.
 * 5. The input is already validated (device id pattern, user agent cut to 512 characters) but is
 *    personal data: send the model only what it needs, and never log it with secrets.
 * 6. A model calibrated differently can be mapped by changing the thresholds (`skip` <= `optional` <=
 *    `required` <= `strict`), not the code. Combine with `HeuristicRiskAnalyzer` (e.g. take the max of
 *    both scores) if the model should never be more lenient than the offline rules.
 */
export interface RiskAnalyzer {
  /**
   * Scores one sign-in. `signal` is aborted when the provider's time budget ran out; implementations
   * written without it still satisfy the port.
   */
  analyze(input: RiskInput, signal?: AbortSignal): Promise<RiskAssessment>;
}

/** DI token of the RiskAnalyzer port (the AI core). */
export const RiskAnalyzer: InjectionToken<RiskAnalyzer> = Symbol.for("platform.RiskAnalyzer");
