import type { InjectionToken } from "tsyringe";
import type { PromptInput } from "../../prompts/input/prompt-input.js";
import type { SentPrompt } from "../evidence/sealed-evidence-store.js";
import type { BundleSelection, SelectionSource } from "../engine/bundle-selection.js";
import type { DecisionAction, DecisionLayer } from "../engine/decision-record.js";
import type { DecisionReason } from "../inspector/response-inspector.js";
import type { DecisionEvent } from "./decision-event.js";

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

/** A decision as the model side returns it (checked, floored, with its fallback if any). */
export interface DecisionOutcome {
  readonly action: DecisionAction;
  /** Null when the decision is a recorded fallback (no accepted answer scored it). */
  readonly riskScore: number | null;
  readonly confidence: number;
  /** The reasons and what each cites (fact IDs in v20, section names in v19). */
  readonly reasons: readonly DecisionReason[];
  readonly layer: DecisionLayer;
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
  /** Every distinct prompt sent, exactly as sent (one per layer asked; a retry resends its layer's). */
  readonly prompts: readonly SentPrompt[];
  /** Model calls made, retries included (the caps count them); default `prompts.length`. */
  readonly modelCalls?: number;
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

/**
 * DI token of the in-process DecisionMaker the pipeline falls back to when the configured one may not
 * be asked (a model-call cap) or did not decide in time. Default: the layered engine over the built-in
 * offline analyst; it must not call out of the process, since the caps do not count it.
 */
export const FallbackDecisionMaker: InjectionToken<DecisionMaker> = Symbol.for(
  "platform.FallbackDecisionMaker",
);
