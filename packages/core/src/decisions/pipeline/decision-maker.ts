import type { InjectionToken } from "tsyringe";
import type { PromptInput } from "../../prompts/input/prompt-input.js";
import type { SentPrompt } from "../evidence/sealed-evidence-store.js";
import type { BundleSelection, SelectionSource } from "../engine/bundle-selection.js";
import type { DecisionEvent } from "./decision-event.js";

/** The actions a decision may take, mildest first (the prompts' output vocabulary). */
export type DecisionAction = "ALLOW" | "CHALLENGE" | "ESCALATE" | "BLOCK";

/** Which model answers, and whether prompts leave the process (an external model gets redacted input). */
export interface DecisionModelInfo {
  readonly id: string;
  /** True when prompts go to a model outside this platform (an HTTP API); the built-in analyst is not. */
  readonly external: boolean;
}

/** What the pipeline asks the model side for. */
export interface DecisionRequest {
  /** The canonical context (already redacted when the model is external). */
  readonly input: PromptInput;
  /** The bundle every prompt of this event is rendered with. */
  readonly selection: BundleSelection;
  readonly event: DecisionEvent;
}

/** One reason of a decision: a code and the fact IDs of the prompt lines it rests on. */
export interface DecisionReason {
  readonly code: string;
  readonly factIds: readonly string[];
}

/** A decision as the model side returns it (checked, floored, with its fallback if any). */
export interface DecisionOutcome {
  readonly action: DecisionAction;
  readonly riskScore: number;
  readonly confidence: number;
  readonly reasons: readonly DecisionReason[];
  readonly layer: "L1" | "L2";
  readonly bundleVersion: string;
  readonly bundleHash: string;
  readonly selectionSource: SelectionSource;
  readonly model: DecisionModelInfo;
  /** Milliseconds per phase (`totalMs`, `l1Ms`, `l2Ms`, ...). */
  readonly timings: Readonly<Record<string, number>>;
  /** The minimum-action rule that raised the action, if one did. */
  readonly floorApplied?: string;
  /** Why a recorded fallback decision stands in for the model's answer, if it does. */
  readonly fallback?: string;
  /** Every prompt sent, exactly as sent (one per model call). */
  readonly prompts: readonly SentPrompt[];
}

/**
 * The seam between the pipeline and the model side: turns one event's context into a decision.
 * `signal` aborts when the pipeline's per-decision timeout passes.
 */
export interface DecisionMaker {
  /** The model behind it (known before any call: the pipeline redacts for an external one). */
  readonly model: DecisionModelInfo;
  decide(request: DecisionRequest, signal: AbortSignal): Promise<DecisionOutcome>;
}

/** DI token of the DecisionMaker port. */
export const DecisionMaker: InjectionToken<DecisionMaker> = Symbol.for("platform.DecisionMaker");
