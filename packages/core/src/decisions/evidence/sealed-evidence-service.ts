import type { InjectionToken } from "tsyringe";
import type { AuditSink } from "../../kernel/audit-sink.js";
import { type ChainEntry, genesisLinkOf, linkOf } from "./chain-entry.js";
import type { EvidenceCapture } from "./evidence-capture.js";
import type { EvidenceChainWriter } from "./evidence-chain-writer.js";
import { type CheckpointSigner, checkpointSignatureHolds } from "./evidence-checkpoint.js";
import type { DecisionRecord, EvidencePackage } from "./evidence-package.js";
import { verifyPackageSeal } from "./package-seal-check.js";
import type { PayloadBody, PayloadCipher } from "./payload-cipher.js";
import type { SealedEvidenceStore } from "./sealed-evidence-store.js";
import { type SealedHeader, type SealedPackage, type SealedPayload, sealPackage } from "./sealed-package.js";

/**
 * The part of a package's seal computed off the serving thread (a shadow worker): its header, hash
 * and payload encrypted under a data key not yet wrapped. Recording it only wraps the key and appends.
 */
export interface PresealedPackage {
  readonly header: SealedHeader;
  readonly packageHash: string;
  readonly body: PayloadBody;
}

/** A package's seal as the decision detail shows it. */
export interface SealView {
  readonly packageHash: string;
  readonly instanceId: string;
  readonly sequence: number;
  readonly link: string;
  /** The first checkpoint at or past the package whose signature holds; null when none covers it yet. */
  readonly checkpoint: { readonly sequence: number; readonly at: number; readonly kid: string } | null;
  /** The package hash, the prompt and context hashes and the link to its predecessor all hold. */
  readonly intact: boolean;
  /** Why not, when not intact (a SealBreak, `BROKEN_LINK`, `PAYLOAD_UNREADABLE` or `DELETED`). */
  readonly reason: string | null;
  /** True when the payload was erased (its key destroyed). */
  readonly erased: boolean;
}

/** A decision as the detail reads it: its record and, when sealed and kept, its seal and payload. */
export interface DecisionEvidence {
  readonly record: DecisionRecord;
  readonly seal: SealView | null;
  readonly payload: SealedPayload | null;
}

/** A kept package as the inspector reads it: the sealed package and whether its payload could not be opened. */
export interface OpenedPackage extends SealedPackage {
  readonly unreadable: boolean;
}

/** Who reads a package's prompts (audited). */
export interface EvidenceReader {
  readonly principal: string;
  readonly remoteAddress?: string | undefined;
}

/**
 * The decisions' evidence: `record` keeps every decision's record and seals those the capture rules
 * pick (prompts hashed, payload encrypted under its own key, appended to this instance's chain);
 * `read` answers a decision with its seal checked and its payload opened, an audited read
 * (`evidence.package.read`). Shadow runs are recorded through it too (stage SHADOW).
 */
export class SealedEvidence {
  constructor(
    private readonly o: {
      store: SealedEvidenceStore;
      chain: EvidenceChainWriter;
      cipher: PayloadCipher;
      signer: CheckpointSigner;
      capture: EvidenceCapture;
      instanceId: string;
      audit: AuditSink;
    },
  ) {}

  /**
   * Records `pkg` (sealed when the capture rules pick it); CONFLICT when its id was recorded. When
   * sealing fails the record is still kept (`sealed: false`) and the sealing error is thrown after.
   * A `presealed` part of this package for this chain is used as it is (its data key wrapped here).
   */
  async record(pkg: EvidencePackage, presealed?: PresealedPackage): Promise<{ sealed: boolean }> {
    let failure: unknown;
    const sealed =
      this.o.capture.decide(pkg) &&
      (await this.seal(pkg, presealed).catch((error: unknown) => {
        failure = error;
        return false;
      }));
    // A package that could not be sealed still leaves its decision's record; the failure is the caller's to report.
    await this.o.store.putRecord({
      id: pkg.id,
      eventId: pkg.eventId,
      ...(pkg.correlationId === undefined ? {} : { correlationId: pkg.correlationId }),
      at: pkg.at,
      metadata: pkg.metadata,
      sealed,
    });
    if (failure !== undefined) throw failure;
    return { sealed };
  }

  /** The decision `id` with its seal and payload; undefined when no record or package is kept. */
  async read(id: string, reader: EvidenceReader): Promise<DecisionEvidence | undefined> {
    const record = await this.o.store.record(id);
    const entry = await this.o.store.packageEntry(id);
    if (entry === undefined) return record === undefined ? undefined : { record, seal: null, payload: null };
    if (entry.header === undefined)
      return record === undefined
        ? undefined
        : { record, seal: await this.sealOf(entry, "DELETED"), payload: null };
    const kept = record ?? recordOf(entry);
    let payload: SealedPayload | undefined;
    let unreadable = false;
    try {
      payload = entry.payload && (await this.o.cipher.decrypt(entry.payload, id, entry.entryHash));
    } catch {
      unreadable = true;
    }
    if (payload !== undefined) this.audited(id, reader);
    const check = verifyPackageSeal({ header: entry.header, packageHash: entry.entryHash, payload });
    const reason = unreadable ? "PAYLOAD_UNREADABLE" : check.reason;
    return { record: kept, seal: await this.sealOf(entry, reason), payload: payload ?? null };
  }

  /**
   * A kept package opened for the inspector (a system read, not audited per package: the
   * administrator's read through `read` is). Undefined when no package with a header is kept;
   * `payload` absent when it was erased, `unreadable` when its key can no longer open it.
   */
  async open(id: string): Promise<OpenedPackage | undefined> {
    const entry = await this.o.store.packageEntry(id);
    if (entry?.header === undefined) return undefined;
    const sealed = { header: entry.header, packageHash: entry.entryHash };
    if (entry.payload?.wrappedKey === undefined) return { ...sealed, unreadable: false };
    try {
      return {
        ...sealed,
        payload: await this.o.cipher.decrypt(entry.payload, id, entry.entryHash),
        unreadable: false,
      };
    } catch {
      return { ...sealed, unreadable: true };
    }
  }

  private async seal(pkg: EvidencePackage, presealed?: PresealedPackage): Promise<boolean> {
    const own =
      presealed !== undefined &&
      presealed.header.id === pkg.id &&
      presealed.header.instanceId === this.o.instanceId;
    let header: SealedHeader;
    let entryHash: string;
    let payload: Awaited<ReturnType<PayloadCipher["wrap"]>>;
    if (own) {
      ({ header, packageHash: entryHash } = presealed);
      payload = await this.o.cipher.wrap(presealed.body, pkg.id);
    } else {
      const sealed = sealPackage(pkg, this.o.instanceId);
      ({ header, packageHash: entryHash } = sealed);
      payload = await this.o.cipher.encrypt(sealed.payload!, pkg.id, entryHash);
    }
    await this.o.chain.append({
      instanceId: this.o.instanceId,
      kind: "PACKAGE",
      at: pkg.at,
      entryHash,
      packageIds: [pkg.id],
      header,
      payload,
    });
    return true;
  }

  private async sealOf(entry: ChainEntry, reason: string | null): Promise<SealView> {
    let previousLink: string | undefined = genesisLinkOf(entry.instanceId);
    if (entry.sequence > 1) {
      const [previous] = await this.o.store.entries(entry.instanceId, entry.sequence - 2, 1);
      previousLink = previous?.sequence === entry.sequence - 1 ? previous.link : undefined;
    }
    const linked =
      previousLink !== undefined && linkOf(previousLink, entry.entryHash, entry.sequence) === entry.link;
    const why = reason ?? (linked ? null : "BROKEN_LINK");
    return {
      packageHash: entry.entryHash,
      instanceId: entry.instanceId,
      sequence: entry.sequence,
      link: entry.link,
      checkpoint: await this.coveringCheckpoint(entry),
      intact: why === null,
      reason: why,
      erased: entry.payload !== undefined && entry.payload.wrappedKey === undefined,
    };
  }

  private async coveringCheckpoint(entry: ChainEntry): Promise<SealView["checkpoint"]> {
    const covering = (await this.o.store.checkpoints(entry.instanceId)).find(
      (c) => c.sequence >= entry.sequence,
    );
    if (covering === undefined || !checkpointSignatureHolds(covering, await this.o.signer.publicKeys()))
      return null;
    return { sequence: covering.sequence, at: covering.at, kid: covering.kid };
  }

  private audited(packageId: string, reader: EvidenceReader): void {
    try {
      this.o.audit.record({
        type: "evidence.package.read",
        outcome: "success",
        principal: reader.principal,
        ...(reader.remoteAddress === undefined ? {} : { remoteAddress: reader.remoteAddress }),
        data: { packageId },
      });
    } catch {
      // The sink never blocks a read.
    }
  }
}

/** A record rebuilt from a package's header (a record dropped before its package). */
function recordOf(entry: ChainEntry): DecisionRecord {
  const h = entry.header!;
  return {
    id: h.id,
    eventId: h.eventId,
    ...(h.correlationId === null ? {} : { correlationId: h.correlationId }),
    at: h.at,
    metadata: h.metadata,
    sealed: true,
  };
}

/** DI token of the SealedEvidence service. */
export const SealedEvidenceToken: InjectionToken<SealedEvidence> = Symbol.for("platform.SealedEvidence");
