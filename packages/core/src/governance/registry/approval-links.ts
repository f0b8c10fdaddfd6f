import { writeScopeHead } from "./head-writer.js";
import type { ReleaseHistoryEntry, ReleaseRegistry, ReleaseRow } from "./release-registry.js";

/** A few quick tries: the link is bookkeeping, not worth holding a caller for. */
const LINK_RETRY = { attempts: 4, maxDelayMs: 10 };

/** The stored entry an unlinked approval belongs to: same version, same moment, same actor. */
function entryFor(row: ReleaseRow, entries: readonly ReleaseHistoryEntry[]): ReleaseHistoryEntry | undefined {
  const a = row.approval;
  if (a === undefined || a.historyId !== undefined) return undefined;
  return entries.find(
    (e) =>
      e.promptKey === row.promptKey &&
      e.promptVersion === row.promptVersion &&
      e.at === a.at &&
      e.actor === a.by,
  );
}

/**
 * Sets `approval.historyId` of every release whose approval has none and was made by one of
 * `entries` (same version, moment and actor): the store gives an entry its id when it is appended,
 * which is after the change's own compare-and-set. One compare-and-set, retried a few times; writes
 * nothing when nothing is left to link (a later change replaced the approval, or it is linked).
 */
export async function linkApprovals(
  registry: ReleaseRegistry,
  registryScope: string,
  entries: readonly ReleaseHistoryEntry[],
): Promise<number> {
  if (entries.length === 0) return 0;
  const { result } = await writeScopeHead(
    registry,
    registryScope,
    async (head) => {
      let linked = 0;
      const releases = head.releases.map((row) => {
        const entry = entryFor(row, entries);
        if (entry === undefined || row.approval === undefined) return row;
        linked += 1;
        return { ...row, approval: { ...row.approval, historyId: entry.id } };
      });
      return linked === 0
        ? { result: 0 }
        : { next: { releases, openExecutions: head.openExecutions }, result: linked };
    },
    LINK_RETRY,
  );
  return result;
}
