import type { Clock } from "../../kernel/clock.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import type { BundleCatalog } from "../../prompts/bundle-catalog-token.js";
import type { CatalogEntry } from "../../prompts/manifest/bundle-catalog.js";
import { governanceAuditEvent, GOVERNANCE_AUDIT, SYSTEM_ACTOR } from "../governance-audit.js";
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

/** One registration in the making: the rows so far, what it did, and its history. */
interface Draft {
  releases: ReleaseRow[];
  readonly report: StartupRegistrationReport;
  readonly entries: NewReleaseHistoryEntry[];
  readonly registryScope: string;
  readonly at: number;
  readonly runnable: (row: ReleaseRow) => boolean;
  readonly policySetHash: string | undefined;
}

/** An existing row: its code-owned content refreshed when the manifest changed; nothing else. */
function refresh(d: Draft, existing: ReleaseRow, content: ReturnType<typeof codeOwned>): void {
  if (sameContent(existing, content)) return;
  d.releases = withReleases(d.releases, [{ ...existing, ...content, updatedAt: d.at }]);
  d.report.refreshed.push(existing.promptVersion);
  d.entries.push({
    kind: "REFRESHED",
    registryScope: d.registryScope,
    promptKey: existing.promptKey,
    promptVersion: existing.promptVersion,
    fromStatus: existing.status,
    toStatus: existing.status,
    blockers: [],
    actor: SYSTEM_ACTOR.username,
    rationale: `${RATIONALE}: code-owned content refreshed (artifact hash ${content.artifactHash.slice(0, 12)})`,
    at: d.at,
  });
}

/** The ACTIVE rows of `retired` (bundles this build no longer runs) deprecated for `promoted`. */
function deprecateRetired(d: Draft, retired: readonly ReleaseRow[], promoted: string): ReleaseRow[] {
  const rationale = `${RATIONALE}: this build no longer runs it; ${promoted} is the new default`;
  const change = { actor: SYSTEM_ACTOR, rationale, at: d.at };
  return retired.map((before) => {
    const after = movedRow(before, "DEPRECATED", change);
    d.entries.push(movedEntry(before, after, "TRANSITION_APPLIED", change));
    d.report.deprecated.push(before.promptVersion);
    return after;
  });
}

/** A new row with its descriptor's status, held back to AVAILABLE while a runnable release is ACTIVE. */
function register(d: Draft, entry: CatalogEntry): void {
  const { promptKey, promptVersion, releaseStatus } = entry.manifest.descriptor;
  const declared = releaseStateOf(releaseStatus) ?? "AVAILABLE";
  const activeHere = d.releases.filter((r) => r.status === "ACTIVE" && r.promptKey === promptKey);
  const held = declared === "ACTIVE" && activeHere.some(d.runnable);
  const status = held ? "AVAILABLE" : declared;
  const rationale = held
    ? `${RATIONALE}: held back, the scope runs an ACTIVE release of this build`
    : RATIONALE;
  const executes = status === "ACTIVE" || status === "CANARY";
  const row: ReleaseRow = {
    registryScope: d.registryScope,
    promptKey,
    promptVersion,
    status,
    ...codeOwned(entry),
    approval: { by: SYSTEM_ACTOR.username, at: d.at, rationale },
    ...(executes && d.policySetHash !== undefined ? { policySetHash: d.policySetHash } : {}),
    registeredAt: d.at,
    updatedAt: d.at,
  };
  d.report.registered.push(promptVersion);
  if (held) d.report.heldBack.push(promptVersion);
  d.entries.push({
    kind: "REGISTERED",
    registryScope: d.registryScope,
    promptKey,
    promptVersion,
    toStatus: status,
    requestedStatus: declared,
    blockers: [],
    actor: SYSTEM_ACTOR.username,
    rationale,
    at: d.at,
  });
  const retired = status === "ACTIVE" ? activeHere.filter((r) => !d.runnable(r)) : [];
  d.releases = withReleases(d.releases, [...deprecateRetired(d, retired, promptVersion), row]);
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
): Draft {
  const runs = new Set(
    o.catalog.entries
      .filter((e) => e.bundle)
      .map((e) => `${e.manifest.descriptor.promptKey}\u0000${e.manifest.descriptor.promptVersion}`),
  );
  const d: Draft = {
    releases: [...head.releases],
    report: { registered: [], heldBack: [], refreshed: [], deprecated: [] },
    entries: [],
    registryScope: head.registryScope,
    at: o.clock.now(),
    runnable: (r) => runs.has(`${r.promptKey}\u0000${r.promptVersion}`),
    policySetHash,
  };
  for (const entry of o.catalog.entries) {
    if (entry.bundle === undefined) continue;
    const { promptKey, promptVersion } = entry.manifest.descriptor;
    const existing = findRelease({ releases: d.releases }, promptKey, promptVersion);
    if (existing === undefined) register(d, entry);
    else refresh(d, existing, codeOwned(entry));
  }
  return d;
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
  await o.recorder.applied(PLATFORM_GLOBAL_SCOPE, result.entries);
  o.recorder.audit(
    governanceAuditEvent(GOVERNANCE_AUDIT.registered, SYSTEM_ACTOR, "info", { ...result.report }),
  );
  await o.recorder.changed(PLATFORM_GLOBAL_SCOPE, "REGISTERED");
  return result.report;
}
