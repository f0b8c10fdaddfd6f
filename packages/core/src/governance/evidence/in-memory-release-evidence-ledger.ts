import { checkListLimit } from "../registry/release-head-check.js";
import {
  type EvidenceQuery,
  type EvidenceRecord,
  MAX_EVIDENCE_LIST_LIMIT,
  type NewEvidenceRecord,
  type ReleaseEvidenceLedger,
} from "./release-evidence-ledger.js";

/** At most this many records are kept in memory; past it the oldest goes first. */
const MAX_RECORDS = 10_000;

/**
 * The reference ReleaseEvidenceLedger, used by tests and the embedded default: append-only, kept as
 * frozen copies, bounded by MAX_RECORDS.
 */
export class InMemoryReleaseEvidenceLedger implements ReleaseEvidenceLedger {
  private readonly records: EvidenceRecord[] = [];
  private seq = 0;

  async record(entry: NewEvidenceRecord): Promise<EvidenceRecord> {
    this.seq += 1;
    const stored = Object.freeze(structuredClone({ ...evidenceFields(entry), id: `ev-${this.seq}` }));
    this.records.push(stored);
    if (this.records.length > MAX_RECORDS) this.records.shift();
    return structuredClone(stored);
  }

  async list(query: EvidenceQuery): Promise<EvidenceRecord[]> {
    const limit = query.limit ?? 100;
    checkListLimit(limit, MAX_EVIDENCE_LIST_LIMIT);
    const sorted = this.records
      .map((r, i) => ({ r, i }))
      .sort((a, b) => a.r.recordedAt - b.r.recordedAt || a.i - b.i);
    const out: EvidenceRecord[] = [];
    for (let k = sorted.length - 1; k >= 0 && out.length < limit; k -= 1) {
      const r = sorted[k]!.r;
      if (r.promptKey !== query.promptKey) continue;
      if (query.promptVersion !== undefined && r.promptVersion !== query.promptVersion) continue;
      if (query.bundleHash !== undefined && r.bundleHash !== query.bundleHash) continue;
      if (query.kind !== undefined && r.kind !== query.kind) continue;
      out.push(structuredClone(r));
    }
    return out;
  }

  async get(id: string): Promise<EvidenceRecord | undefined> {
    const found = this.records.find((r) => r.id === id);
    return found === undefined ? undefined : structuredClone(found);
  }
}

// The record's own fields only: an `id` (or anything else) smuggled into the input is not stored.
function evidenceFields(e: NewEvidenceRecord): NewEvidenceRecord {
  return {
    kind: e.kind,
    promptKey: e.promptKey,
    promptVersion: e.promptVersion,
    bundleHash: e.bundleHash,
    recordedBy: e.recordedBy,
    recordedAt: e.recordedAt,
    content: e.content,
    contentHash: e.contentHash,
  };
}
