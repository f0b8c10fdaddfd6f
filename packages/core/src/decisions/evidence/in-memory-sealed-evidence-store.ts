import { PlatformError } from "../../kernel/platform-error.js";
import { type ChainEntry, linkOf, recordHashOf } from "./chain-entry.js";
import type { EvidenceCheckpoint } from "./evidence-checkpoint.js";
import type { DecisionRecord } from "./evidence-package.js";
import { checkChainEntry, checkEvidenceLimit, checkInstant } from "./evidence-store-checks.js";
import type { SealedEvidenceStore } from "./sealed-evidence-store.js";

/**
 * The embedded SealedEvidenceStore, bounded: past `capacity` decision records the oldest is dropped
 * (and counted); past `capacity` kept packages the oldest package's header and payload are dropped
 * and the drop is recorded as a DELETION entry of its chain, so the chain stays verifiable. Chain
 * entries themselves stay (small once thinned). Everything is deep-copied in and out.
 */
export class InMemorySealedEvidenceStore implements SealedEvidenceStore {
  private readonly records = new Map<string, DecisionRecord>();
  private readonly chainsByName = new Map<string, ChainEntry[]>();
  private readonly packages = new Map<string, ChainEntry>();
  private readonly checkpointsByName = new Map<string, EvidenceCheckpoint[]>();
  private readonly keptOrder: string[] = [];
  private droppedCount = 0;
  private droppedPackages = 0;

  constructor(private readonly capacity = 1000) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError("capacity must be a positive integer");
  }

  async putRecord(record: DecisionRecord): Promise<void> {
    if (this.records.has(record.id))
      throw new PlatformError("CONFLICT", "A decision record with this id exists");
    this.records.set(record.id, structuredClone(record));
    while (this.records.size > this.capacity) {
      this.records.delete(this.records.keys().next().value!);
      this.droppedCount++;
    }
  }

  async record(id: string): Promise<DecisionRecord | undefined> {
    return copy(this.records.get(id));
  }

  async recentRecords(limit: number): Promise<DecisionRecord[]> {
    checkEvidenceLimit(limit);
    return [...this.records.values()]
      .map((r, i) => ({ r, i }))
      .sort((a, b) => b.r.at - a.r.at || b.i - a.i)
      .slice(0, limit)
      .map(({ r }) => structuredClone(r));
  }

  async pruneRecords(before: number): Promise<number> {
    checkInstant(before, "before");
    let count = 0;
    for (const [id, r] of this.records) if (r.at < before && this.records.delete(id)) count++;
    return count;
  }

  async append(entry: ChainEntry): Promise<void> {
    checkChainEntry(entry);
    const chain = this.chainsByName.get(entry.instanceId) ?? [];
    // The usual append extends the head: only a slot at or below it needs the scan (and the sort).
    const extendsHead = (chain.at(-1)?.sequence ?? 0) < entry.sequence;
    if (!extendsHead && chain.some((e) => e.sequence === entry.sequence))
      throw new PlatformError("CONFLICT", "This slot of the chain is taken");
    const packageId = entry.kind === "PACKAGE" ? entry.packageIds[0]! : undefined;
    if (packageId !== undefined && this.packages.has(packageId))
      throw new PlatformError("CONFLICT", "This package is sealed already");
    const kept = structuredClone(entry);
    chain.push(kept);
    if (!extendsHead) chain.sort((a, b) => a.sequence - b.sequence);
    this.chainsByName.set(entry.instanceId, chain);
    if (packageId === undefined) return;
    this.packages.set(packageId, kept);
    this.keptOrder.push(packageId);
    this.evictBeyondCapacity(entry.at);
  }

  // Memory is bounded: past `capacity` kept packages the oldest is dropped, and the drop recorded as a
  // DELETION entry of its chain (linked here, in the same step), so the chain still verifies.
  private evictBeyondCapacity(at: number): void {
    while (this.keptOrder.length > this.capacity) {
      const id = this.keptOrder.shift()!;
      const victim = this.packages.get(id) as { header?: unknown; payload?: unknown; instanceId: string };
      if (victim.header === undefined) continue;
      delete victim.header;
      delete victim.payload;
      const chain = this.chainsByName.get(victim.instanceId)!;
      const head = chain.at(-1)!;
      const entryHash = recordHashOf("DELETION", at, [id]);
      const sequence = head.sequence + 1;
      chain.push({
        instanceId: victim.instanceId,
        sequence,
        kind: "DELETION",
        at,
        entryHash,
        link: linkOf(head.link, entryHash, sequence),
        packageIds: [id],
      });
      this.droppedPackages++;
    }
  }

  async head(instanceId: string): Promise<ChainEntry | undefined> {
    return copy(this.chainsByName.get(instanceId)?.at(-1));
  }

  async entries(instanceId: string, afterSequence: number, limit: number): Promise<ChainEntry[]> {
    checkEvidenceLimit(limit);
    checkInstant(afterSequence, "afterSequence");
    return (this.chainsByName.get(instanceId) ?? [])
      .filter((e) => e.sequence > afterSequence)
      .slice(0, limit)
      .map((e) => structuredClone(e));
  }

  async chains(): Promise<string[]> {
    return [...this.chainsByName.keys()].sort();
  }

  async packageEntry(packageId: string): Promise<ChainEntry | undefined> {
    return copy(this.packages.get(packageId));
  }

  async keptPackages(
    before: number,
    limit: number,
    after?: { readonly at: number; readonly id: string },
  ): Promise<ChainEntry[]> {
    checkInstant(before, "before");
    checkEvidenceLimit(limit);
    const key = (e: ChainEntry) => ({ at: e.header!.at, id: e.packageIds[0]! });
    return [...this.packages.values()]
      .filter((e) => e.header !== undefined && e.header.at < before)
      .filter((e) => after === undefined || compare(key(e), after) > 0)
      .sort((a, b) => compare(key(a), key(b)))
      .slice(0, limit)
      .map((e) => structuredClone(e));
  }

  async readablePackagesOf(userId: string, limit: number): Promise<ChainEntry[]> {
    checkEvidenceLimit(limit);
    return [...this.packages.values()]
      .filter((e) => e.header?.metadata.userId === userId && e.payload?.wrappedKey !== undefined)
      .slice(0, limit)
      .map((e) => structuredClone(e));
  }

  async dropPackage(packageId: string): Promise<boolean> {
    const entry = this.packages.get(packageId) as { header?: unknown; payload?: unknown } | undefined;
    if (entry?.header === undefined) return false;
    delete entry.header;
    delete entry.payload;
    return true;
  }

  async destroyPayloadKey(packageId: string): Promise<boolean> {
    const payload = this.packages.get(packageId)?.payload as { wrappedKey?: string } | undefined;
    if (payload?.wrappedKey === undefined) return false;
    delete payload.wrappedKey;
    return true;
  }

  async putCheckpoint(checkpoint: EvidenceCheckpoint): Promise<void> {
    const list = this.checkpointsByName.get(checkpoint.instanceId) ?? [];
    if (list.some((c) => c.sequence === checkpoint.sequence))
      throw new PlatformError("CONFLICT", "The chain has a checkpoint at this sequence");
    list.push(structuredClone(checkpoint));
    list.sort((a, b) => a.sequence - b.sequence);
    this.checkpointsByName.set(checkpoint.instanceId, list);
  }

  async checkpoints(instanceId: string): Promise<EvidenceCheckpoint[]> {
    return (this.checkpointsByName.get(instanceId) ?? []).map((c) => structuredClone(c));
  }

  /** Decision records dropped because the store was full. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Sealed packages dropped because the store was full (each recorded by a DELETION entry). */
  get droppedPackageCount(): number {
    return this.droppedPackages;
  }
}

function copy<T>(value: T | undefined): T | undefined {
  return value === undefined ? undefined : structuredClone(value);
}

function compare(a: { at: number; id: string }, b: { at: number; id: string }): number {
  return a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
