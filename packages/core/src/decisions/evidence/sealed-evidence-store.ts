import type { InjectionToken } from "tsyringe";
import type { ChainEntry } from "./chain-entry.js";
import type { EvidenceCheckpoint } from "./evidence-checkpoint.js";
import type { DecisionRecord } from "./evidence-package.js";

export type { DecisionRecord, EvidenceMetadata, EvidencePackage, SentPrompt } from "./evidence-package.js";

/** Largest `limit` of the store's list reads. */
export const EVIDENCE_RECENT_MAX_LIMIT = 1000;

/**
 * Where decisions' evidence is kept: a record of every decision (what the admin list reads, sealed or
 * not), and one hash chain per instance of sealed packages, erasures and deletions, with its signed
 * checkpoints. The chain's head moves by compare-and-set: `append` claims the slot `sequence` of
 * chain `instanceId` and fails (CONFLICT) when it is taken, so two writers of one chain cannot fork
 * it. Entries are never rewritten, only thinned: retention removes a package's header and payload
 * (`dropPackage`), erasure its payload key (`destroyPayloadKey`); the entry's hash and link stay.
 * Every read answers copies. Limits are integers 1..EVIDENCE_RECENT_MAX_LIMIT, else VALIDATION_FAILED.
 */
export interface SealedEvidenceStore {
  /** Stores a decision's record; CONFLICT when one with its id exists. */
  putRecord(record: DecisionRecord): Promise<void>;
  /** The decision record with this id. */
  record(id: string): Promise<DecisionRecord | undefined>;
  /** The most recent records (by `at`, then last stored), newest first. */
  recentRecords(limit: number): Promise<DecisionRecord[]>;
  /** Deletes the records older than `before` (epoch ms); the count. */
  pruneRecords(before: number): Promise<number>;

  /**
   * Claims slot `entry.sequence` of chain `entry.instanceId`: CONFLICT when the slot is taken, or when
   * a PACKAGE entry names a package already sealed.
   */
  append(entry: ChainEntry): Promise<void>;
  /** The entry of highest sequence of a chain (its head). */
  head(instanceId: string): Promise<ChainEntry | undefined>;
  /** A chain's entries of sequence above `afterSequence`, ascending, at most `limit`. */
  entries(instanceId: string, afterSequence: number, limit: number): Promise<ChainEntry[]>;
  /** The names of every chain, ascending. */
  chains(): Promise<string[]>;
  /** The PACKAGE entry sealing package `packageId`. */
  packageEntry(packageId: string): Promise<ChainEntry | undefined>;
  /** PACKAGE entries still holding their header, captured before `before`, oldest first (by `at`, then id), after the cursor `after`. */
  keptPackages(
    before: number,
    limit: number,
    after?: { readonly at: number; readonly id: string },
  ): Promise<ChainEntry[]>;
  /** PACKAGE entries of user `userId` whose payload key is still there. */
  readablePackagesOf(userId: string, limit: number): Promise<ChainEntry[]>;
  /** Removes a package's header and payload (retention); false when it had none. */
  dropPackage(packageId: string): Promise<boolean>;
  /** Removes a package's wrapped payload key (erasure); false when it had none. */
  destroyPayloadKey(packageId: string): Promise<boolean>;

  /** Stores a signed checkpoint; CONFLICT when the chain has one at that sequence. */
  putCheckpoint(checkpoint: EvidenceCheckpoint): Promise<void>;
  /** A chain's checkpoints, ascending by sequence. */
  checkpoints(instanceId: string): Promise<EvidenceCheckpoint[]>;
}

/** DI token of the SealedEvidenceStore port. */
export const SealedEvidenceStore: InjectionToken<SealedEvidenceStore> = Symbol.for(
  "platform.SealedEvidenceStore",
);
