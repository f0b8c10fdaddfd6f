import type { DependencyContainer } from "tsyringe";
import { KeyRing } from "../../kernel/keys/key-ring.js";
import { type ChainEntry, genesisLinkOf, linkOf, recordHashOf } from "./chain-entry.js";
import {
  CHECKPOINT_KEY_PURPOSE,
  type CheckpointPublicKey,
  checkpointSignatureHolds,
  type EvidenceCheckpoint,
} from "./evidence-checkpoint.js";
import { SealedEvidenceStore } from "./sealed-evidence-store.js";
import { packageHashOf } from "./sealed-package.js";
import { brokenPayloadsOf } from "./stored-payload-check.js";

/** What is wrong with a chain at a sequence. */
export type ChainProblemKind =
  /** An entry is missing: the sequence jumps over it. */
  | "MISSING_LINK"
  /** An entry does not link to its predecessor (edited, reordered, or moved from another chain). */
  | "BROKEN_LINK"
  /** A package's header does not hash to the hash the chain holds. */
  | "PACKAGE_EDITED"
  /** A package's kept payload does not open, or its prompts or context differ from the hashes sealed (local verify). */
  | "PAYLOAD_EDITED"
  /** An erasure or deletion entry does not hash to the hash the chain holds. */
  | "ENTRY_EDITED"
  /** A package's header is gone but no deletion entry records it. */
  | "UNRECORDED_DELETION"
  /** A checkpoint's signature does not hold under the key it names (or that key is unknown). */
  | "CHECKPOINT_INVALID"
  /** A signed checkpoint names another link than the chain holds at its sequence. */
  | "CHECKPOINT_MISMATCH"
  /** A signed checkpoint covers entries the chain no longer has (its tail was cut). */
  | "TAIL_MISSING";

/** The first problem of a chain. */
export interface ChainProblem {
  readonly kind: ChainProblemKind;
  /** The sequence of the first broken or missing link. */
  readonly sequence: number;
  readonly packageId: string | null;
}

/** The verdict on one chain. */
export interface ChainVerification {
  readonly instanceId: string;
  readonly intact: boolean;
  /** Entries read. */
  readonly entries: number;
  readonly head: { readonly sequence: number; readonly link: string } | null;
  /** Checkpoints whose signature and link hold. */
  readonly checkpointsVerified: number;
  /** The sequence the latest holding checkpoint covers (0: none). */
  readonly coveredTo: number;
  /** The problem of lowest sequence; null when intact. */
  readonly problem: ChainProblem | null;
}

const PAGE = 500;

/**
 * Walks one chain's entries in the order they are read (ascending sequence, page by page through
 * `feed`) and proves it intact or names its first broken or missing link: each entry must take the
 * next sequence, hash what it holds (a package's header to its package hash) and link to its
 * predecessor; a dropped package must be recorded by a DELETION entry; each checkpoint must be signed
 * by a key it names and match the link at its sequence, and no checkpoint may lie past the head.
 * Entries past the last checkpoint are only as safe as the store (whoever can rewrite the store can
 * rewrite an uncovered tail).
 */
export class EvidenceChainVerifier {
  private expected = 1;
  private previousLink: string;
  private read = 0;
  private last: ChainEntry | undefined;
  private readonly problems: ChainProblem[] = [];
  private readonly dropped = new Map<string, number>();
  private readonly deleted = new Set<string>();
  private readonly pending: Map<number, EvidenceCheckpoint>;
  private verified = 0;
  private coveredTo = 0;

  constructor(
    private readonly instanceId: string,
    checkpoints: readonly EvidenceCheckpoint[],
    private readonly keys: readonly CheckpointPublicKey[],
  ) {
    this.previousLink = genesisLinkOf(instanceId);
    this.pending = new Map(checkpoints.map((c) => [c.sequence, c]));
  }

  /**
   * Verifies every chain of the store a platform's container holds (a local verify, with the
   * key-encryption key its KeyRing opens under): links, hashes and checkpoints as through the admin
   * API, and every kept payload opened and checked against its hashes.
   */
  static async verifyStore(container: DependencyContainer): Promise<ChainVerification[]> {
    const store = container.resolve(SealedEvidenceStore);
    const ring = container.resolve(KeyRing);
    const keys = (await ring.keys(CHECKPOINT_KEY_PURPOSE))
      .filter((k) => k.publicJwk !== undefined)
      .map((k) => ({ kid: k.kid, publicJwk: k.publicJwk! }));
    const verdicts: ChainVerification[] = [];
    for (const instanceId of await store.chains()) {
      const verifier = new EvidenceChainVerifier(instanceId, await store.checkpoints(instanceId), keys);
      for (let after = 0; ; ) {
        const page = await store.entries(instanceId, after, PAGE);
        verifier.feed(page);
        for (const broken of await brokenPayloadsOf(page, ring))
          verifier.flag("PAYLOAD_EDITED", broken.sequence, broken.packageIds[0] ?? null);
        if (page.length < PAGE) break;
        after = page.at(-1)!.sequence;
      }
      verdicts.push(verifier.finish());
    }
    return verdicts;
  }

  /** Reads the next entries of the chain. */
  feed(entries: readonly ChainEntry[]): void {
    for (const entry of entries) this.step(entry);
  }

  /** The verdict, once every entry was fed. */
  finish(): ChainVerification {
    for (const [packageId, sequence] of this.dropped)
      if (!this.deleted.has(packageId)) this.flag("UNRECORDED_DELETION", sequence, packageId);
    for (const checkpoint of this.pending.values()) {
      if (!checkpointSignatureHolds(checkpoint, this.keys))
        this.flag("CHECKPOINT_INVALID", checkpoint.sequence);
      else this.flag("TAIL_MISSING", (this.last?.sequence ?? 0) + 1);
    }
    const problem = [...this.problems].sort((a, b) => a.sequence - b.sequence)[0] ?? null;
    return {
      instanceId: this.instanceId,
      intact: problem === null,
      entries: this.read,
      head: this.last === undefined ? null : { sequence: this.last.sequence, link: this.last.link },
      checkpointsVerified: this.verified,
      coveredTo: this.coveredTo,
      problem,
    };
  }

  private step(entry: ChainEntry): void {
    this.read++;
    const packageId = entry.packageIds[0] ?? null;
    if (entry.sequence > this.expected) this.flag("MISSING_LINK", this.expected);
    else if (entry.sequence < this.expected || entry.instanceId !== this.instanceId)
      this.flag("BROKEN_LINK", entry.sequence, packageId);
    if (entry.kind === "PACKAGE") this.checkPackage(entry);
    else if (recordHashOf(entry.kind, entry.at, entry.packageIds) !== entry.entryHash)
      this.flag("ENTRY_EDITED", entry.sequence, packageId);
    else if (entry.kind === "DELETION") for (const id of entry.packageIds) this.deleted.add(id);
    if (linkOf(this.previousLink, entry.entryHash, entry.sequence) !== entry.link)
      this.flag("BROKEN_LINK", entry.sequence, packageId);
    this.checkCheckpoint(entry);
    this.previousLink = entry.link;
    this.expected = entry.sequence + 1;
    this.last = entry;
  }

  private checkPackage(entry: ChainEntry): void {
    const packageId = entry.packageIds[0] ?? "";
    const header = entry.header;
    if (header === undefined) {
      this.dropped.set(packageId, entry.sequence);
      return;
    }
    const holds =
      entry.packageIds.length === 1 &&
      header.id === packageId &&
      header.instanceId === this.instanceId &&
      packageHashOf(header) === entry.entryHash;
    if (!holds) this.flag("PACKAGE_EDITED", entry.sequence, packageId);
  }

  private checkCheckpoint(entry: ChainEntry): void {
    const checkpoint = this.pending.get(entry.sequence);
    if (checkpoint === undefined) return;
    this.pending.delete(entry.sequence);
    if (!checkpointSignatureHolds(checkpoint, this.keys) || checkpoint.instanceId !== this.instanceId)
      this.flag("CHECKPOINT_INVALID", entry.sequence);
    else if (checkpoint.link !== entry.link) this.flag("CHECKPOINT_MISMATCH", entry.sequence);
    else {
      this.verified++;
      this.coveredTo = entry.sequence;
    }
  }

  /** Records a problem found outside the walk (a payload check). */
  flag(kind: ChainProblemKind, sequence: number, packageId: string | null = null): void {
    this.problems.push({ kind, sequence, packageId });
  }
}

/** Verifies one whole chain held in memory (see EvidenceChainVerifier). */
export function verifyEvidenceChain(chain: {
  readonly instanceId: string;
  readonly entries: readonly ChainEntry[];
  readonly checkpoints: readonly EvidenceCheckpoint[];
  readonly keys: readonly CheckpointPublicKey[];
}): ChainVerification {
  const verifier = new EvidenceChainVerifier(chain.instanceId, chain.checkpoints, chain.keys);
  verifier.feed(chain.entries);
  return verifier.finish();
}
