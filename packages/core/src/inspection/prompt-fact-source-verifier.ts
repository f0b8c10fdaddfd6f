import type { InjectionToken } from "tsyringe";

/** One fact a sealed prompt states: its fact ID, its key and its value as written on its line. */
export interface FactClaim {
  readonly factId: string;
  /** The dictionary key (`request.subject`, `request.roles`) or `past-record:<decision id>`. */
  readonly key: string;
  /** The value as the line writes it (`ROLE_USER, ROLE_ANALYST`; a past record's twelve fields joined by ` | `). */
  readonly value: string;
}

/** What the inspector asks the host about one package: the claims of its deciding prompt. */
export interface FactSourceQuery {
  readonly packageId: string;
  /** When the decision was captured (epoch milliseconds): the host compares with its records as of then where it can. */
  readonly capturedAt: number;
  /** The account the decision was about. */
  readonly userId: string;
  /** The claims, masked facts left out (they are UNVERIFIABLE, REDACTED). */
  readonly claims: readonly FactClaim[];
}

/** The host's word on one claim: its records confirm it, contradict it, or hold nothing to compare. */
export interface FactSourceAnswer {
  readonly factId: string;
  readonly outcome: "CONFIRMED" | "CONTRADICTED" | "NO_RECORD";
  /** What the host's record says, in words, for the finding (never a secret). */
  readonly detail?: string;
}

/**
 * The host's check of a prompt's facts against its own records (the SOURCE_TRUTH check): it answers
 * the claims it can judge and leaves out the others (those are not compared). Without one, SOURCE_TRUTH
 * records NOT_INTEGRATED. Called off the decision path, by the inspector only.
 */
export interface PromptFactSourceVerifier {
  verify(query: FactSourceQuery): Promise<readonly FactSourceAnswer[]>;
}

/** DI token of the PromptFactSourceVerifier port (no default: a host registers one). */
export const PromptFactSourceVerifier: InjectionToken<PromptFactSourceVerifier> = Symbol.for(
  "platform.PromptFactSourceVerifier",
);
