import type { InjectionToken } from "tsyringe";
import type { DecisionOutcome, DecisionRequest } from "./decision-maker.js";

/** A shadow run's copy of one decision's request, waiting for the enforced outcome. */
export interface ShadowCopy {
  /**
   * Hands over the enforced outcome (written already); the shadow run starts on its own executor
   * and compares its result with it. Returns at once; never throws.
   */
  after(enforced: DecisionOutcome): void;
}

/**
 * Shadow runs (the spec's shadow run rules): a candidate bundle run on sampled copies of decisions
 * apart from them, recorded only. The pipeline asks for a copy before the configured model decides
 * and hands it the enforced outcome after the decision is written; nothing a shadow run answers is
 * enforced, learned or added to the session. Registered only when shadow runs are configured
 * (promptGovernancePlugin with `shadow.sample-percent` above 0); the pipeline runs without one.
 */
export interface ShadowDecisions {
  /**
   * A copy of `request` (the context as the enforced maker gets it) to finish after the decision,
   * or undefined when the event is not sampled, no SHADOW release runs, or the day's cap is spent.
   * Synchronous and cheap (it reads memory only); never throws.
   */
  copy(request: DecisionRequest): ShadowCopy | undefined;
  /** Resolves when every shadow run started so far settled (the pipeline's `idle` waits for it). */
  idle(): Promise<void>;
}

/** DI token of the ShadowDecisions port (optional: absent, no shadow run). */
export const ShadowDecisions: InjectionToken<ShadowDecisions> = Symbol.for("platform.ShadowDecisions");
