import type { Clock } from "../../kernel/clock.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import type { BundleCatalog } from "../../prompts/bundle-catalog-token.js";
import type { CatalogEntry } from "../../prompts/manifest/bundle-catalog.js";
import { governanceAuditEvent, GOVERNANCE_AUDIT, SYSTEM_ACTOR } from "../governance-audit.js";
import { newHistoryId } from "../governance-service-options.js";
import type { PolicySetSource } from "../policy-sets/policy-set-hash.js";
import { type HeadWriteRetry, writeScopeHead } from "../registry/head-writer.js";
import {
  type NewReleaseHistoryEntry,
  PLATFORM_GLOBAL_SCOPE,
  type ReleaseRegistry,
  type ReleaseRow,
  type ReleaseScopeHead,
} from "../registry/release-registry.js";
import { findRelease, withReleases } from "../registry/release-rows.js";
import { releaseStateOf } from "../registry/release-state.js";
import type { ReleaseChangeRecorder } from "../release-change-recorder.js";
import { movedEntry, movedRow } from "../transitions/transition-plan.js";

/** What start-up registration reads and writes. */
export interface StartupRegistrationOptions {
  readonly registry: ReleaseRegistry;
  readonly catalog: BundleCatalog;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly recorder: ReleaseChangeRecorder;
  readonly policySets?: PolicySetSource | undefined;
  readonly retry?: HeadWriteRetry | undefined;
}

/** What one registration did, by version. */
export interface StartupRegistrationReport {
  /** New rows. */
  readonly registered: string[];
  /** New rows declared ACTIVE that start AVAILABLE: the scope already runs an ACTIVE release of this build. */
  readonly heldBack: string[];
  /** Existing rows whose code-owned content changed (template key, contract version, artifact hash, rollback targets). */
  readonly refreshed: string[];
  /** ACTIVE rows of bundles this build no longer runs, deprecated because a new build default took ACTIVE. */
  readonly deprecated: string[];
}

const RATIONALE = "start-up registration";

/** The code-owned content of a row, from the manifest. */
function codeOwned(entry: CatalogEntry) {
  const m = entry.manifest;
  return {
    templateKey: m.descriptor.templateKey,
    contractVersion: m.descriptor.contractVersion,
    artifactHash: m.bundleHash,
    rollbackTargets: [...m.rollbackTargets],
  };
}

function sameContent(row: ReleaseRow, content: ReturnType<typeof codeOwned>): boolean {
  return (
    row.templateKey === content.templateKey &&
    row.contractVersion === content.contractVersion &&
    row.artifactHash === content.artifactHash &&
    row.rollbackTargets.join("\u0000") === content.rollbackTargets.join("\u0000")
  );
}

interface Planned {
  readonly report: StartupRegistrationReport;
  readonly entries: NewReleaseHistoryEntry[];
}

/**
 * Rule 4 on one fresh read of PLATFORM_GLOBAL: each bundle this build runs gets a row; a new row
 * takes its descriptor's status, except that one declared ACTIVE starts AVAILABLE while the scope
 * has an ACTIVE release of the same prompt key that this build runs. When a new row does take
 * ACTIVE, the scope's ACTIVE releases of that prompt key that this build no longer runs are
 * deprecated in the same write (they cannot execute; rule 1). An existing row gets its code-owned
 * content refreshed; its status, canary fields, approval, rollback state and policy set stay.
 */
function planRegistration(
  head: ReleaseScopeHead,
  o: StartupRegistrationOptions,
  policySetHash: string | undefined,
) {
  const at = o.clock.now();
  const runs = new Set(
    o.catalog.entries
      .filter((e) => e.bundle)
      .map((e) => `${e.manifest.descriptor.promptKey}\u0000${e.manifest.descriptor.promptVersion}`),
  );
  const runnable = (r: ReleaseRow) => runs.has(`${r.promptKey}\u0000${r.promptVersion}`);
  const report: StartupRegistrationReport = { registered: [], heldBack: [], refreshed: [], deprecated: [] };
  const entries: NewReleaseHistoryEntry[] = [];
  const change = { actor: SYSTEM_ACTOR, rationale: RATIONALE, at };
  let releases = [...head.releases];
  for (const entry of o.catalog.entries) {
    if (entry.bundle === undefined) continue;
    const { promptKey, promptVersion } = entry.manifest.descriptor;
    const content = codeOwned(entry);
    const existing = findRelease({ releases }, promptKey, promptVersion);
    if (existing !== undefined) {
      if (sameContent(existing, content)) continue;
      releases = withReleases(releases, [{ ...existing, ...content, updatedAt: at }]);
      report.refreshed.push(promptVersion);
      entries.push({
        kind: "REFRESHED",
        registryScope: head.registryScope,
        promptKey,
        promptVersion,
        fromStatus: existing.status,
        toStatus: existing.status,
        blockers: [],
        actor: SYSTEM_ACTOR.username,
        rationale: `${RATIONALE}: code-owned content refreshed (artifact hash ${content.artifactHash.slice(0, 12)})`,
        at,
      });
      continue;
    }
    const declared = releaseStateOf(entry.manifest.descriptor.releaseStatus) ?? "AVAILABLE";
    const activeHere = releases.filter((r) => r.status === "ACTIVE" && r.promptKey === promptKey);
    const held = declared === "ACTIVE" && activeHere.some(runnable);
    const status = held ? "AVAILABLE" : declared;
    const historyId = newHistoryId(o.ids);
    const executes = status === "ACTIVE" || status === "CANARY";
    const row: ReleaseRow = {
      registryScope: head.registryScope,
      promptKey,
      promptVersion,
      status,
      ...content,
      approval: {
        by: SYSTEM_ACTOR.username,
        at,
        rationale: held
          ? `${RATIONALE}: held back, the scope runs an ACTIVE release of this build`
          : RATIONALE,
        historyId,
      },
      ...(executes && policySetHash !== undefined ? { policySetHash } : {}),
      registeredAt: at,
      updatedAt: at,
    };
    if (held) report.heldBack.push(promptVersion);
    report.registered.push(promptVersion);
    entries.push({
      id: historyId,
      kind: "REGISTERED",
      registryScope: head.registryScope,
      promptKey,
      promptVersion,
      toStatus: status,
      requestedStatus: declared,
      blockers: [],
      actor: SYSTEM_ACTOR.username,
      rationale: row.approval!.rationale,
      at,
    });
    const retired = status === "ACTIVE" ? activeHere.filter((r) => !runnable(r)) : [];
    const deprecated = retired.map((r) =>
      movedRow(r, "DEPRECATED", {
        ...change,
        rationale: `${RATIONALE}: this build no longer runs it; ${promptVersion} is the new default`,
        historyId: newHistoryId(o.ids),
      }),
    );
    deprecated.forEach((after, k) =>
      entries.push(
        movedEntry(retired[k]!, after, "TRANSITION_APPLIED", {
          ...change,
          rationale: after.approval!.rationale,
        }),
      ),
    );
    report.deprecated.push(...deprecated.map((r) => r.promptVersion));
    releases = withReleases(releases, [...deprecated, row]);
  }
  return { releases, report, entries };
}

/**
 * Start-up registration (rule 4) in one compare-and-set of PLATFORM_GLOBAL (retried on a lost race
 * from a fresh read, so two instances starting together agree); nothing is written when nothing
 * changed. Recorded in the history and the audit trail under `system`; the caches are told.
 */
export async function registerBuildReleases(
  o: StartupRegistrationOptions,
): Promise<StartupRegistrationReport> {
  const policySetHash = await o.policySets?.currentHash();
  const { result, written } = await writeScopeHead<Planned>(
    o.registry,
    PLATFORM_GLOBAL_SCOPE,
    async (head) => {
      const planned = planRegistration(head, o, policySetHash);
      const changed = planned.entries.length > 0;
      return {
        ...(changed ? { next: { releases: planned.releases, openExecutions: head.openExecutions } } : {}),
        result: { report: planned.report, entries: planned.entries },
      };
    },
    o.retry,
  );
  if (!written) return result.report;
  await o.recorder.history(result.entries);
  o.recorder.audit(
    governanceAuditEvent(GOVERNANCE_AUDIT.registered, SYSTEM_ACTOR, "info", { ...result.report }),
  );
  await o.recorder.changed(PLATFORM_GLOBAL_SCOPE, "REGISTERED");
  return result.report;
}
