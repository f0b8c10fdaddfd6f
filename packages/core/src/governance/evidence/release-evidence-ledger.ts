import type { InjectionToken } from "tsyringe";

/**
 * The kinds of release evidence the ledger keeps (docs/prompt-governance.md gives each kind's schema
 * and what the gate checks of it). The gate's injection, non-functional, empirical and TEVV checks
 * read the EVALUATION_RUN record written by `platform bundles evaluate`; there is no kind a person
 * fills in to say "passed". SHADOW_COMPARISON is written by the shadow runner only (the intake
 * refuses it) and counts, summed, toward the empirical check. REHEARSAL is written by the server that
 * ran a counterfactual re-render (`platform bundles rehearse`); it is listed with the evidence, and
 * the gate never counts it.
 */
export const EVIDENCE_KINDS = [
  "CHANGE_RECORD",
  "EVALUATION_RUN",
  "MODEL_COMPATIBILITY",
  "BUDGET_PROFILE",
  "TOKEN_COUNTING_POLICY",
  "CACHE_POLICY",
  "COMPACTION_POLICY",
  "SHADOW_COMPARISON",
  "REHEARSAL",
] as const;
/** The kinds only the server records (the intake refuses them): shadow batches and rehearsals. */
export const SERVER_RECORDED_EVIDENCE_KINDS = ["SHADOW_COMPARISON", "REHEARSAL"] as const;
type ServerRecorded = (typeof SERVER_RECORDED_EVIDENCE_KINDS)[number];
type Submittable = Exclude<(typeof EVIDENCE_KINDS)[number], ServerRecorded>;
/** The kinds an administrator submits through the API or the CLI (every kind but the server-recorded ones). */
export const SUBMITTABLE_EVIDENCE_KINDS = EVIDENCE_KINDS.filter(
  (k): k is Submittable => !(SERVER_RECORDED_EVIDENCE_KINDS as readonly string[]).includes(k),
) as [Submittable, ...Submittable[]];
/** One of EVIDENCE_KINDS. */
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/**
 * One piece of evidence, bound to one bundle: its prompt key, version and bundle hash (the
 * manifest's). Evidence made for another hash never satisfies the gate of this one.
 */
export interface EvidenceRecord {
  /** Store-assigned id. */
  readonly id: string;
  readonly kind: EvidenceKind;
  readonly promptKey: string;
  readonly promptVersion: string;
  readonly bundleHash: string;
  /** The administrator who submitted it (the API's authenticated name, never a field of the body). */
  readonly recordedBy: string;
  /** Epoch milliseconds, from the Clock port. */
  readonly recordedAt: number;
  /** The kind's content, checked against the kind's schema before it is recorded. */
  readonly content: Readonly<Record<string, unknown>>;
  /** SHA-256 (hex) of the content's canonical JSON (RFC 8785). */
  readonly contentHash: string;
}

/** A record before the ledger gives it an id. */
export type NewEvidenceRecord = Omit<EvidenceRecord, "id">;

/** Filter of `ReleaseEvidenceLedger.list`; every field narrows. */
export interface EvidenceQuery {
  readonly promptKey: string;
  readonly promptVersion?: string | undefined;
  readonly bundleHash?: string | undefined;
  readonly kind?: EvidenceKind | undefined;
  /** 1 to 1,000; default 100. */
  readonly limit?: number | undefined;
}

/** The most records one `list` answers. */
export const MAX_EVIDENCE_LIST_LIMIT = 1_000;

/**
 * Where release evidence is kept: append-only, never edited or deleted. `list` answers newest first
 * (by `recordedAt`; of one instant, the later recorded first). A limit outside 1..1,000 is
 * VALIDATION_FAILED.
 */
export interface ReleaseEvidenceLedger {
  /** Appends one record; returns it with its id. */
  record(entry: NewEvidenceRecord): Promise<EvidenceRecord>;
  /** The records matching `query`, newest first, at most `limit`. */
  list(query: EvidenceQuery): Promise<EvidenceRecord[]>;
  /** One record by id. */
  get(id: string): Promise<EvidenceRecord | undefined>;
}

/** DI token of the ReleaseEvidenceLedger port. */
export const ReleaseEvidenceLedger: InjectionToken<ReleaseEvidenceLedger> = Symbol.for(
  "platform.ReleaseEvidenceLedger",
);
