import type { DECISION_ACTIONS } from "../../prompts/bundles/output-format.js";
import type { PromptLayout } from "../../prompts/bundles/bundle-definition.js";
import type { AppliedFloor } from "../floors/minimum-action-rules.js";
import type { DecisionReason } from "../inspector/response-inspector.js";
import type { AnswerRefusal } from "../inspector/refusal-codes.js";
import type { SelectionSource } from "./bundle-selection.js";

/** An action a decision may take, mildest first: ALLOW, CHALLENGE, ESCALATE, BLOCK. */
export type DecisionAction = (typeof DECISION_ACTIONS)[number];

/** The two analysis layers: L1 first and fast, L2 deeper, asked on low confidence or ESCALATE. */
export type DecisionLayer = "L1" | "L2";

/** Why a layer's decision is the fallback and not the model's: the last refusal or model error. */
export interface DecisionFallback {
  /** An inspector refusal code, or the model's error code (`DECISION_MODEL_TIMEOUT`, ...). */
  readonly code: AnswerRefusal | string;
  readonly detail: string;
}

/** One call of the model within a layer and what became of its answer. */
export interface ModelAttempt {
  /** `ACCEPTED`, an inspector refusal code, or the model's error code. */
  readonly outcome: "ACCEPTED" | AnswerRefusal | string;
  /** The model's text exactly as received; absent when the call failed. */
  readonly answer?: string;
  readonly detail?: string;
  readonly ms: number;
}

/** What one layer did: the prompts exactly as sent, its attempts, its decision. */
export interface LayerOutcome {
  readonly layer: DecisionLayer;
  readonly profile: string;
  readonly system: string;
  readonly user: string;
  readonly attempts: readonly ModelAttempt[];
  readonly action: DecisionAction;
  readonly riskScore: number | null;
  readonly confidence: number;
  readonly reasons: readonly DecisionReason[];
  readonly fallback?: DecisionFallback;
  /** Why the next layer was asked (`ESCALATE`, `LOW_CONFIDENCE`), if it was. */
  readonly escalated?: "ESCALATE" | "LOW_CONFIDENCE";
}

/**
 * The decision of one event: the final layer's action raised to its floor, with everything needed
 * to audit it. `riskScore` is null when the final layer fell back (no accepted answer scored it).
 */
export interface DecisionRecord {
  readonly eventId: string;
  readonly action: DecisionAction;
  readonly riskScore: number | null;
  readonly confidence: number;
  readonly reasons: readonly DecisionReason[];
  /** The layer whose decision this is. */
  readonly layer: DecisionLayer;
  readonly bundle: { readonly version: string; readonly hash: string; readonly layout: PromptLayout };
  readonly selectionSource: SelectionSource;
  readonly model: string;
  readonly timings: {
    readonly startedAt: number;
    readonly totalMs: number;
    readonly layers: readonly { readonly layer: DecisionLayer; readonly ms: number }[];
  };
  /** The minimum action rule that raised the action, when one did. */
  readonly floor?: AppliedFloor;
  /** Set when the final layer's action is the fallback, not a model's answer. */
  readonly fallback?: DecisionFallback;
}

/** What `DecisionEngine.decide` returns: the record, and each layer's prompts and attempts (the evidence). */
export interface DecisionEngineResult {
  readonly record: DecisionRecord;
  readonly layers: readonly LayerOutcome[];
}
