import type { AuditEvent, AuditSink } from "../kernel/audit-sink.js";
import type { Logger } from "../kernel/logger.js";
import { linkApprovals } from "./registry/approval-links.js";
import type {
  NewReleaseHistoryEntry,
  ReleaseHistoryEntry,
  ReleaseRegistry,
  RollbackExecution,
} from "./registry/release-registry.js";
import type { ReleaseChangeNotifier } from "./release-change-notifier.js";

/** What a ReleaseChangeRecorder writes to. */
export interface ReleaseChangeRecorderOptions {
  readonly registry: ReleaseRegistry;
  readonly audit: AuditSink;
  readonly notifier: ReleaseChangeNotifier;
  readonly logger: Logger;
}

/**
 * What follows a decided change of the registry: its history entries, the execution record, the
 * audit event and the cache invalidation. The head is already written (or was deliberately left as
 * it was) when these run, so a failing store here is logged and never turns an applied change into
 * an error answer.
 */
export class ReleaseChangeRecorder {
  constructor(private readonly o: ReleaseChangeRecorderOptions) {}

  /** Appends the entries in order; the stored ones (an entry that failed is logged and left out). */
  async history(entries: readonly NewReleaseHistoryEntry[]): Promise<ReleaseHistoryEntry[]> {
    const stored: ReleaseHistoryEntry[] = [];
    for (const entry of entries) {
      try {
        stored.push(await this.o.registry.appendHistory(entry));
      } catch (error) {
        this.o.logger.error("release history entry not written", {
          registryScope: entry.registryScope,
          promptVersion: entry.promptVersion,
          kind: entry.kind,
          error: String(error),
        });
      }
    }
    return stored;
  }

  /**
   * The history of an applied change: appends the entries, then links each changed release's
   * approval to its stored entry (`approval.historyId`) in one more compare-and-set of the scope.
   * A link that keeps losing races or fails is logged and left out; the change stands.
   */
  async applied(
    registryScope: string,
    entries: readonly NewReleaseHistoryEntry[],
  ): Promise<ReleaseHistoryEntry[]> {
    const stored = await this.history(entries);
    try {
      await linkApprovals(this.o.registry, registryScope, stored);
    } catch (error) {
      this.o.logger.warn("release approvals not linked to their history entries", {
        registryScope,
        error: String(error),
      });
    }
    return stored;
  }

  /** Records the execution's latest state (for lookups by key after it closed). */
  async execution(execution: RollbackExecution): Promise<void> {
    try {
      await this.o.registry.recordExecution(execution);
    } catch (error) {
      this.o.logger.error("rollback execution record not written", {
        executionKey: execution.executionKey,
        status: execution.status,
        error: String(error),
      });
    }
  }

  /** One audit event (the sink never throws). */
  audit(event: AuditEvent): void {
    this.o.audit.record(event);
  }

  /** Tells the caches the scope changed (never rejects). */
  changed(registryScope: string, kind: string): Promise<void> {
    return this.o.notifier.changed(registryScope, kind);
  }
}
