import type { PromptInput } from "../../prompts/input/prompt-input.js";
import type { DecisionStage, SelectedRelease } from "../engine/bundle-selection.js";
import type { DecisionReason } from "../inspector/response-inspector.js";

/** One prompt exactly as it was sent to the model. */
export interface SentPrompt {
  readonly layer: "L1" | "L2";
  readonly system: string;
  readonly user: string;
}

/** How a decision was made: everything but the prompts and the context. */
export interface EvidenceMetadata {
  readonly eventKind: string;
  readonly userId: string;
  readonly action: string;
  /** The action the model's outcome carried, when the last-administrator rule changed it. */
  readonly decidedAction?: string;
  /** Null for a fallback decision. */
  readonly riskScore: number | null;
  readonly confidence: number;
  /**
   * The deciding answer's reasons (code and the fact IDs it cites), what REASON_MATCH checks. Absent
   * in packages sealed before it was sealed: those stay verifiable, REASON_MATCH is unverifiable there.
   */
  readonly reasons?: readonly DecisionReason[] | undefined;
  readonly layer: "L1" | "L2";
  readonly bundleVersion: string;
  readonly bundleHash: string;
  readonly selectionSource: string;
  /** ENFORCE: the decision in force; SHADOW: a shadow run's result, recorded only. Absent in packages written before issue 31: ENFORCE. */
  readonly stage?: DecisionStage | undefined;
  /** The registry release the bundle ran as (REGISTRY, CANARY and SHADOW selections). */
  readonly release?: SelectedRelease | undefined;
  readonly model: { readonly id: string; readonly external: boolean };
  readonly timings: Readonly<Record<string, number>>;
  readonly floorApplied?: string;
  readonly fallback?: string;
  /** Fields of the input masked before an external model saw it (dotted paths). */
  readonly redacted: readonly string[];
}

/** What a decision hands to the evidence: the prompts as sent, the context and the metadata. */
export interface EvidencePackage {
  /** The package's id (the decision's id). */
  readonly id: string;
  readonly eventId: string;
  /** The correlation id of the request whose signal asked for the decision, when there was one. */
  readonly correlationId?: string;
  /** When it was captured, epoch milliseconds. */
  readonly at: number;
  /** The system and user prompts, exactly as sent, in the order they were sent. */
  readonly prompts: readonly SentPrompt[];
  /** The canonical context the prompts were rendered from (as sent: after any redaction). */
  readonly input: PromptInput;
  readonly metadata: EvidenceMetadata;
}

/** A decision as its record keeps it, sealed or not: the package without prompts and context. */
export interface DecisionRecord {
  readonly id: string;
  readonly eventId: string;
  readonly correlationId?: string;
  readonly at: number;
  readonly metadata: EvidenceMetadata;
  /** True when its package was sealed (captured in full or sampled). */
  readonly sealed: boolean;
}
