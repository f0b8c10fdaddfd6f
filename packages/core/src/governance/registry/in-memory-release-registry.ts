import { checkListLimit, checkReleaseHead } from "./release-head-check.js";
import {
  MAX_RELEASE_HISTORY_LIMIT,
  type NewReleaseHistoryEntry,
  type ReleaseHistoryEntry,
  type ReleaseHistoryQuery,
  type ReleaseRegistry,
  type ReleaseScopeHead,
  type RollbackExecution,
} from "./release-registry.js";

/** At most this many history entries are kept in memory; past it the oldest goes first. */
const MAX_HISTORY = 20_000;

/**
 * The reference ReleaseRegistry, used by tests and the embedded default: heads replaced by
 * compare-and-set inside one synchronous step (so two concurrent writers of one revision cannot
 * both win), everything kept as frozen copies (a caller never shares an object with the store).
 */
export class InMemoryReleaseRegistry implements ReleaseRegistry {
  private readonly byScope = new Map<string, ReleaseScopeHead>();
  private readonly entries: ReleaseHistoryEntry[] = [];
  private readonly executions = new Map<string, RollbackExecution>();
  private seq = 0;

  async head(registryScope: string): Promise<ReleaseScopeHead> {
    return (
      this.byScope.get(registryScope) ?? { registryScope, revision: 0, releases: [], openExecutions: [] }
    );
  }

  async heads(): Promise<ReleaseScopeHead[]> {
    return [...this.byScope.values()].sort((a, b) => (a.registryScope < b.registryScope ? -1 : 1));
  }

  async replaceHead(
    registryScope: string,
    expectedRevision: number,
    next: Pick<ReleaseScopeHead, "releases" | "openExecutions">,
  ): Promise<ReleaseScopeHead | undefined> {
    checkReleaseHead(registryScope, next);
    const current = this.byScope.get(registryScope)?.revision ?? 0;
    if (current !== expectedRevision) return undefined;
    const head: ReleaseScopeHead = deepFreeze(
      structuredClone({
        registryScope,
        revision: current + 1,
        releases: next.releases,
        openExecutions: next.openExecutions,
      }),
    );
    this.byScope.set(registryScope, head);
    return head;
  }

  async appendHistory(entry: NewReleaseHistoryEntry): Promise<ReleaseHistoryEntry> {
    this.seq += 1;
    const stored = deepFreeze(structuredClone({ ...historyFields(entry), id: `rh-${this.seq}` }));
    this.entries.push(stored);
    if (this.entries.length > MAX_HISTORY) this.entries.shift();
    return stored;
  }

  async history(query: ReleaseHistoryQuery = {}): Promise<ReleaseHistoryEntry[]> {
    const limit = query.limit ?? 100;
    checkListLimit(limit, MAX_RELEASE_HISTORY_LIMIT);
    const out: ReleaseHistoryEntry[] = [];
    // Newest first by `at`, then insertion: walk backwards over a stable sort by `at`.
    const sorted = this.entries.map((e, i) => ({ e, i })).sort((a, b) => a.e.at - b.e.at || a.i - b.i);
    for (let k = sorted.length - 1; k >= 0 && out.length < limit; k -= 1) {
      const e = sorted[k]!.e;
      if (query.registryScope !== undefined && e.registryScope !== query.registryScope) continue;
      if (query.promptVersion !== undefined && e.promptVersion !== query.promptVersion) continue;
      out.push(e);
    }
    return out;
  }

  async execution(executionKey: string): Promise<RollbackExecution | undefined> {
    return this.executions.get(executionKey);
  }

  async recordExecution(execution: RollbackExecution): Promise<void> {
    this.executions.set(execution.executionKey, deepFreeze(structuredClone(execution)));
  }
}

// The entry's own fields only: an `id` (or anything else) smuggled into the input is not stored.
function historyFields(e: NewReleaseHistoryEntry): NewReleaseHistoryEntry {
  return {
    kind: e.kind,
    registryScope: e.registryScope,
    promptKey: e.promptKey,
    promptVersion: e.promptVersion,
    ...(e.fromStatus === undefined ? {} : { fromStatus: e.fromStatus }),
    ...(e.toStatus === undefined ? {} : { toStatus: e.toStatus }),
    ...(e.requestedStatus === undefined ? {} : { requestedStatus: e.requestedStatus }),
    blockers: e.blockers,
    actor: e.actor,
    rationale: e.rationale,
    ...(e.executionKey === undefined ? {} : { executionKey: e.executionKey }),
    ...(e.canary === undefined ? {} : { canary: e.canary }),
    at: e.at,
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
