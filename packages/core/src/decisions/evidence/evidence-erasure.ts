import type { AuditSink } from "../../kernel/audit-sink.js";
import { recordHashOf } from "./chain-entry.js";
import type { EvidenceChainWriter } from "./evidence-chain-writer.js";
import { EVIDENCE_RECENT_MAX_LIMIT, type SealedEvidenceStore } from "./sealed-evidence-store.js";

/**
 * Erases a user's sealed prompts and contexts: records an ERASURE entry naming the packages in each
 * package's chain, then destroys each package's payload key. The headers and hashes stay, so the chain
 * still verifies and shows the erasure as an entry, never a gap. Audited (`evidence.erased`).
 */
export class EvidenceErasure {
  constructor(
    private readonly o: {
      store: SealedEvidenceStore;
      chain: EvidenceChainWriter;
      audit: AuditSink;
      now: () => number;
    },
  ) {}

  /** Erases every readable package of `userId` on behalf of `actor`: how many were erased. */
  async eraseUser(userId: string, actor: string): Promise<number> {
    let erased = 0;
    for (;;) {
      const page = await this.o.store.readablePackagesOf(userId, EVIDENCE_RECENT_MAX_LIMIT);
      if (page.length === 0) break;
      const byChain = new Map<string, string[]>();
      for (const e of page)
        byChain.set(e.instanceId, [...(byChain.get(e.instanceId) ?? []), e.packageIds[0]!]);
      for (const [instanceId, packageIds] of byChain) {
        const at = this.o.now();
        await this.o.chain.append({
          instanceId,
          kind: "ERASURE",
          at,
          entryHash: recordHashOf("ERASURE", at, packageIds),
          packageIds,
        });
        for (const id of packageIds) if (await this.o.store.destroyPayloadKey(id)) erased++;
      }
    }
    try {
      this.o.audit.record({
        type: "evidence.erased",
        outcome: "success",
        principal: actor,
        data: { userId, erased },
      });
    } catch {
      // The erasure stands whatever the sink does.
    }
    return erased;
  }
}
