import type { Clock } from "../../kernel/clock.js";
import { OfflineAnalyst } from "../analyst/offline-analyst.js";
import {
  DECISION_ESCALATION_CONFIDENCE,
  DECISION_L1_TIMEOUT,
  DECISION_L2_TIMEOUT,
} from "../decisions.properties.js";
import type { DecisionMaker } from "../pipeline/decision-maker.js";
import { EngineDecisionMaker } from "./engine-decision-maker.js";
import { LayeredDecisionEngine } from "./layered-decision-engine.js";

/** How the in-process engine layers (default: the decisions properties' defaults). */
export interface InProcessEngineOptions {
  readonly escalationConfidence: number;
  readonly timeouts: { readonly L1: number; readonly L2: number };
}

/**
 * The layered engine over the built-in offline analyst, as a DecisionMaker: what the pipeline falls
 * back to when the configured model may not be asked or did not answer in time. It never leaves the
 * process and costs no model call.
 */
export function inProcessDecisionMaker(
  clock: Clock,
  options: InProcessEngineOptions = {
    escalationConfidence: DECISION_ESCALATION_CONFIDENCE.default,
    timeouts: { L1: DECISION_L1_TIMEOUT.default, L2: DECISION_L2_TIMEOUT.default },
  },
): DecisionMaker {
  const analyst = new OfflineAnalyst();
  const engine = new LayeredDecisionEngine({ model: analyst, clock, ...options });
  return new EngineDecisionMaker({ engine, model: analyst });
}
