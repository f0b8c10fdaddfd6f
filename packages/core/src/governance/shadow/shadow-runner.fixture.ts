// Test support of the shadow runner: the real decision pipeline (decision-pipeline.fixture.ts) with a
// ShadowRunner over its stores, reading a release snapshot made of the rows an InMemoryReleaseRegistry
// holds, and writing comparisons into an InMemoryReleaseEvidenceLedger.
import {
  pipelineFixture,
  RecordingDecisionMaker,
} from "../../decisions/pipeline/decision-pipeline.fixture.js";
import type { DecisionMaker } from "../../decisions/pipeline/decision-maker.js";
import { loadBundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import { InMemoryReleaseEvidenceLedger } from "../evidence/in-memory-release-evidence-ledger.js";
import { InMemoryReleaseRegistry } from "../registry/in-memory-release-registry.js";
import { PLATFORM_GLOBAL_SCOPE, type ReleaseRow } from "../registry/release-registry.js";
import type { ReleaseState } from "../registry/release-state.js";
import type { ReleaseSnapshots, ResourceFamilyOf } from "../selection/release-snapshots.js";
import { platformGlobalScopeResolver } from "../selection/request-scope-resolver.js";
import { ShadowComparisonRecorder } from "./shadow-comparison-recorder.js";
import { ShadowReleaseLookup } from "./shadow-release-lookup.js";
import { ShadowRunner } from "./shadow-runner.js";

/** The build's catalog, read once per test file. */
export const CATALOG = loadBundleCatalog();
export const PROMPT_KEY = "cortex.security-decision";
export const V18 = "2026.05.12-v18";
export const V19 = "2026.07.30-v19";
export const V20 = "2026.09.15-v20";

/** A PLATFORM_GLOBAL row of `version` in `status`, as start-up registration and a transition write it. */
export function row(version: string, status: ReleaseState, artifactHash?: string): ReleaseRow {
  const m = CATALOG.find(version)!.manifest;
  return {
    registryScope: PLATFORM_GLOBAL_SCOPE,
    promptKey: PROMPT_KEY,
    templateKey: m.descriptor.templateKey,
    promptVersion: version,
    status,
    contractVersion: m.descriptor.contractVersion,
    artifactHash: artifactHash ?? m.bundleHash,
    rollbackTargets: m.rollbackTargets,
    approval: { by: "alice", at: Date.UTC(2026, 6, 1), rationale: "try it" },
    registeredAt: 0,
    updatedAt: 0,
  };
}

/** ReleaseSnapshots answering the rows an in-memory registry holds after writing `rows`. */
export async function snapshotsOf(rows: readonly ReleaseRow[]): Promise<ReleaseSnapshots> {
  const registry = new InMemoryReleaseRegistry();
  await registry.replaceHead(PLATFORM_GLOBAL_SCOPE, 0, { releases: rows, openExecutions: [] });
  const heads = await registry.heads();
  const snapshot = { readAt: 0, scopes: new Map(heads.map((h) => [h.registryScope, h.releases])) };
  return { current: () => snapshot };
}

/** Orders and users are resource families; everything else has none. */
export const familyOf: ResourceFamilyOf = (_method, target) =>
  target?.startsWith("/api/orders") ? "orders" : target?.startsWith("/admin/api/users") ? "users" : undefined;

/** Options of `shadowStack`. */
export interface ShadowStackOptions {
  readonly rows?: readonly ReleaseRow[];
  readonly percent?: number;
  readonly cap?: number;
  /** `shadow.requester-share-percent` (default: none, one requester may take the whole cap). */
  readonly share?: number;
  readonly batchSize?: number;
  /** The maker of the shadow runs (default: the pipeline's own). */
  readonly shadowMaker?: DecisionMaker;
}

/** The pipeline with a shadow runner (v19 ACTIVE, v20 SHADOW unless `rows` say otherwise). */
export async function shadowStack(o: ShadowStackOptions = {}) {
  const snapshots = await snapshotsOf(o.rows ?? [row(V19, "ACTIVE"), row(V20, "SHADOW")]);
  const ledger = new InMemoryReleaseEvidenceLedger();
  const maker = new RecordingDecisionMaker();
  let runner: ShadowRunner | undefined;
  const f = await pipelineFixture({}, maker, undefined, (p) => {
    runner = new ShadowRunner({
      samplePercent: o.percent ?? 100,
      dailyCap: o.cap ?? 100,
      requesterSharePercent: o.share,
      batchSize: o.batchSize ?? 50,
      timeoutMs: 5_000,
      maker: o.shadowMaker ?? maker,
      lookup: new ShadowReleaseLookup({ snapshots, scopes: platformGlobalScopeResolver, catalog: CATALOG }),
      evidence: p.evidence,
      recorder: new ShadowComparisonRecorder({
        ledger,
        clock: p.clock,
        logger: p.logger,
        instanceId: "instance-a",
      }),
      familyOf,
      clock: p.clock,
      ids: p.ids,
      audit: p.audit,
      logger: p.logger,
    });
    return runner;
  });
  let n = 0;
  /** A sign-in from a new address each time (a sign-in from the last one would not be decided again). */
  const signIn = (extra: Parameters<typeof f.event>[1] = {}) =>
    f.event("SIGN_IN_COMPLETED", { remoteAddress: `198.51.100.${++n}`, ...extra });
  return { ...f, runner: runner!, ledger, signIn };
}
