import { PlatformError } from "../../kernel/platform-error.js";
import { type ChainEntry, genesisLinkOf, linkOf } from "./chain-entry.js";
import type { CheckpointSigner } from "./evidence-checkpoint.js";
import type { SealedEvidenceStore } from "./sealed-evidence-store.js";

/** Tries of one append before it gives up (each loss means another writer moved the head). */
const MAX_TRIES = 8;

/** An entry before the chain places it: everything but its sequence and link. */
export type UnplacedEntry = Omit<ChainEntry, "sequence" | "link">;

/**
 * Appends entries to a chain: reads its head, links the entry to it and claims the next slot, again
 * from the new head when another writer took that slot (compare-and-set; no fork). Appends of one
 * process are queued per chain, so they never race each other. Every `checkpointEvery` entries it
 * signs a checkpoint of the new head.
 */
export class EvidenceChainWriter {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly o: {
      store: SealedEvidenceStore;
      signer: CheckpointSigner;
      now: () => number;
      checkpointEvery: number;
    },
  ) {}

  /** Appends `entry` to chain `entry.instanceId`: the entry as placed. */
  append(entry: UnplacedEntry): Promise<ChainEntry> {
    const previous = this.queues.get(entry.instanceId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.place(entry));
    this.queues.set(entry.instanceId, next);
    void next
      .finally(() => {
        if (this.queues.get(entry.instanceId) === next) this.queues.delete(entry.instanceId);
      })
      .catch(() => undefined);
    return next;
  }

  /** Signs a checkpoint of the chain's head unless one covers it already: the head's sequence, or undefined for an empty chain. */
  async checkpoint(instanceId: string): Promise<number | undefined> {
    const head = await this.o.store.head(instanceId);
    if (head === undefined) return undefined;
    const last = (await this.o.store.checkpoints(instanceId)).at(-1);
    if (last !== undefined && last.sequence >= head.sequence) return head.sequence;
    await this.sign(head);
    return head.sequence;
  }

  private async place(entry: UnplacedEntry): Promise<ChainEntry> {
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const head = await this.o.store.head(entry.instanceId);
      const sequence = (head?.sequence ?? 0) + 1;
      const previousLink = head?.link ?? genesisLinkOf(entry.instanceId);
      const placed: ChainEntry = {
        ...entry,
        sequence,
        link: linkOf(previousLink, entry.entryHash, sequence),
      };
      try {
        await this.o.store.append(placed);
      } catch (error) {
        if ((error as { code?: unknown }).code === "CONFLICT" && (await this.slotTaken(placed))) continue;
        throw error;
      }
      if (sequence % this.o.checkpointEvery === 0) await this.sign(placed).catch(() => undefined);
      return placed;
    }
    throw new PlatformError(
      "CONFLICT",
      `Chain ${entry.instanceId} moved on ${MAX_TRIES} times; entry not appended`,
    );
  }

  // A CONFLICT for a package sealed already is final; a lost slot is retried.
  private async slotTaken(placed: ChainEntry): Promise<boolean> {
    if (placed.kind === "PACKAGE" && (await this.o.store.packageEntry(placed.packageIds[0]!)) !== undefined)
      return false;
    const head = await this.o.store.head(placed.instanceId);
    return head !== undefined && head.sequence >= placed.sequence;
  }

  private async sign(head: ChainEntry): Promise<void> {
    const checkpoint = await this.o.signer.sign({
      instanceId: head.instanceId,
      sequence: head.sequence,
      link: head.link,
      at: this.o.now(),
    });
    await this.o.store.putCheckpoint(checkpoint).catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== "CONFLICT") throw error;
    });
  }
}
