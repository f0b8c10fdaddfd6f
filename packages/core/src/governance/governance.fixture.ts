// Test support of the governance module: the build's catalog read from the committed manifests
// (without rendering the golden inputs), a trivial evidence gate that reads the in-memory ledger by
// kind (TESTS ONLY: the real gate is the evidence part's), and a harness wiring the service on a
// ManualClock and in-memory stores.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { InMemoryAuditSink } from "../kernel/in-memory-audit-sink.js";
import { ManualClock } from "../kernel/clock.js";
import { InMemoryChangeCounters } from "../kernel/coordination/in-memory-change-counters.js";
import { InProcessEventBus, type PlatformEvent } from "../kernel/event-bus.js";
import type { IdGenerator } from "../kernel/id-generator.js";
import { RecordingLogger } from "../identity/tokens/token-service.test-support.js";
import type { BundleCatalog } from "../prompts/bundle-catalog-token.js";
import { V19_BUNDLE } from "../prompts/bundles/v19-bundle.js";
import { V20_BUNDLE } from "../prompts/bundles/v20-bundle.js";
import { canonicalJson, sha256Hex } from "../prompts/hashing/canonical-json.js";
import type { BundleManifest } from "../prompts/manifest/bundle-manifest.js";
import { DEFAULT_BUNDLE_ROOT } from "../prompts/manifest/bundle-root.js";
import type { BundleDefinition } from "../prompts/bundles/bundle-definition.js";
import { DefaultReleaseGovernance } from "./default-release-governance.js";
import { InMemoryReleaseEvidenceLedger } from "./evidence/in-memory-release-evidence-ledger.js";
import type { EvidenceKind, ReleaseEvidenceLedger } from "./evidence/release-evidence-ledger.js";
import { RELEASE_ALERT_EVENT, type ReleaseAlertPayload } from "./governance-audit.js";
import type { GovernanceServiceOptions } from "./governance-service-options.js";
import type { PolicySetSource } from "./policy-sets/policy-set-hash.js";
import type { HeadWriteRetry } from "./registry/head-writer.js";
import { InMemoryReleaseRegistry } from "./registry/in-memory-release-registry.js";
import { PLATFORM_GLOBAL_SCOPE, type ReleaseRegistry, type ReleaseRow } from "./registry/release-registry.js";
import type { ReleaseState } from "./registry/release-state.js";
import { ReleaseChangeNotifier } from "./release-change-notifier.js";
import { ReleaseChangeRecorder } from "./release-change-recorder.js";
import type { EvidenceGate, GateBlocker, GateBlockerCode, GovernanceActor } from "./release-governance.js";
import { registerBuildReleases, type StartupRegistrationReport } from "./startup/startup-registration.js";

/** The prompt key of every committed manifest. */
export const KEY = "cortex.security-decision";
/** The committed versions. */
export const V17 = "2026.02.03-v17";
export const V18 = "2026.05.12-v18";
export const V19 = "2026.07.30-v19";
export const V20 = "2026.09.15-v20";

/** The committed manifest of `version`. */
export function manifest(version: string): BundleManifest {
  const file = join(DEFAULT_BUNDLE_ROOT, "manifests", KEY, `${version}.json`);
  return JSON.parse(readFileSync(file, "utf8")) as BundleManifest;
}

/** A catalog of `manifests`, the ones in `runs` runnable (their code: the build's bundle, or v20's for a made-up version). */
export function catalogOf(manifests: readonly BundleManifest[], runs: readonly string[]): BundleCatalog {
  const code = (v: string): BundleDefinition | undefined =>
    !runs.includes(v) ? undefined : v === V19 ? V19_BUNDLE : V20_BUNDLE;
  const entries = manifests.map((m) => ({
    file: `prompt-bundles/manifests/${KEY}/${m.descriptor.promptVersion}.json`,
    manifest: m,
    bundle: code(m.descriptor.promptVersion),
  }));
  const find = (version: string) => entries.find((e) => e.manifest.descriptor.promptVersion === version);
  return {
    root: DEFAULT_BUNDLE_ROOT,
    entries,
    buildDefault: V19,
    find,
    runnable(version) {
      const bundle = find(version)?.bundle;
      if (bundle === undefined) throw new Error(`not in build: ${version}`);
      return bundle;
    },
  };
}

/** This build's catalog: the four committed manifests, v19 and v20 runnable. */
export function buildCatalog(): BundleCatalog {
  return catalogOf([V17, V18, V19, V20].map(manifest), [V19, V20]);
}

/** A manifest like `base`, renamed and changed by `changes`. */
export function manifestLike(
  base: BundleManifest,
  changes: Partial<BundleManifest> & {
    promptVersion?: string;
    releaseStatus?: string;
    templateKey?: string;
    contractVersion?: string;
  },
): BundleManifest {
  const { promptVersion, releaseStatus, templateKey, contractVersion, ...rest } = changes;
  return {
    ...base,
    ...rest,
    descriptor: {
      ...base.descriptor,
      ...(promptVersion === undefined ? {} : { promptVersion }),
      ...(releaseStatus === undefined ? {} : { releaseStatus }),
      ...(templateKey === undefined ? {} : { templateKey }),
      ...(contractVersion === undefined ? {} : { contractVersion }),
    },
  };
}

/** The evidence kinds the trivial gate asks for, by blocker. */
const KIND_OF: Partial<Record<GateBlockerCode, EvidenceKind>> = {
  CHANGE_LEDGER_MISSING: "CHANGE_RECORD",
  EVALUATION_NOT_FOR_BUNDLE_HASH: "EVALUATION_RUN",
  MODEL_COMPATIBILITY_MISSING: "MODEL_COMPATIBILITY",
  BUDGET_PROFILE_MISSING: "BUDGET_PROFILE",
  EMPIRICAL_EVAL_MISSING: "EVALUATION_RUN",
  PROMPT_INJECTION_GATE_FAILED: "EVALUATION_RUN",
  NON_FUNCTIONAL_GATE_FAILED: "EVALUATION_RUN",
  TEVV_GATE_NOT_READY: "EVALUATION_RUN",
  TOKEN_COUNTING_POLICY_MISSING: "TOKEN_COUNTING_POLICY",
  CACHE_POLICY_MISSING: "CACHE_POLICY",
  COMPACTION_POLICY_MISSING: "COMPACTION_POLICY",
};
const SHADOW_CODES: GateBlockerCode[] = ["CHANGE_LEDGER_MISSING"];
const CANARY_CODES: GateBlockerCode[] = [
  "EVALUATION_NOT_FOR_BUNDLE_HASH",
  "CHANGE_LEDGER_MISSING",
  "MODEL_COMPATIBILITY_MISSING",
  "BUDGET_PROFILE_MISSING",
];
const ACTIVE_CODES: GateBlockerCode[] = [
  ...CANARY_CODES,
  "PROMPT_INJECTION_GATE_FAILED",
  "NON_FUNCTIONAL_GATE_FAILED",
  "EMPIRICAL_EVAL_MISSING",
  "TEVV_GATE_NOT_READY",
  "TOKEN_COUNTING_POLICY_MISSING",
  "CACHE_POLICY_MISSING",
  "COMPACTION_POLICY_MISSING",
];

/**
 * TESTS ONLY: the spec's evidence blockers by target, each satisfied by any record of its kind bound
 * to the release's bundle hash (no content checked: that is the real gate's work).
 */
export class LedgerKindGate implements EvidenceGate {
  constructor(private readonly ledger: ReleaseEvidenceLedger) {}
  async blockers(release: ReleaseRow, target: ReleaseState): Promise<GateBlocker[]> {
    const codes =
      target === "SHADOW"
        ? SHADOW_CODES
        : target === "CANARY"
          ? CANARY_CODES
          : target === "ACTIVE"
            ? ACTIVE_CODES
            : [];
    const out: GateBlocker[] = [];
    for (const code of codes) {
      const kind = KIND_OF[code]!;
      const found = await this.ledger.list({
        promptKey: release.promptKey,
        promptVersion: release.promptVersion,
        bundleHash: release.artifactHash,
        kind,
        limit: 1,
      });
      if (found.length === 0)
        out.push({ code, detail: `no ${kind} for ${release.artifactHash.slice(0, 12)}` });
    }
    return out;
  }
}

/** Every evidence kind. */
export const ALL_KINDS: EvidenceKind[] = [
  "CHANGE_RECORD",
  "EVALUATION_RUN",
  "MODEL_COMPATIBILITY",
  "BUDGET_PROFILE",
  "TOKEN_COUNTING_POLICY",
  "CACHE_POLICY",
  "COMPACTION_POLICY",
];

/** Sequential, readable ids; secrets from a counter too (tests only). */
export class CountingIds implements IdGenerator {
  private n = 0;
  id(): string {
    this.n += 1;
    return `id-${this.n}`;
  }
  secret(): string {
    this.n += 1;
    return `secret${this.n}`;
  }
}

/** A fixed policy set source whose hash a test can change. */
export class FixedPolicySets implements PolicySetSource {
  constructor(public hash = "a".repeat(64)) {}
  async currentHash(): Promise<string> {
    return this.hash;
  }
}

/** Administrators of the tests. */
export const ALICE: GovernanceActor = {
  username: "alice",
  correlationId: "corr-1",
  remoteAddress: "10.0.0.1",
};
export const BOB: GovernanceActor = { username: "bob" };
export const CAROL: GovernanceActor = { username: "carol" };

/** Options of `governanceHarness`. */
export interface HarnessOptions {
  registry?: ReleaseRegistry;
  catalog?: BundleCatalog;
  /** Default: a FixedPolicySets; `null` for a host without policy sets. */
  policySets?: PolicySetSource | null;
  retry?: HeadWriteRetry;
  counters?: InMemoryChangeCounters;
}

/** The service and everything it touches, for assertions. */
export interface GovernanceHarness {
  readonly governance: DefaultReleaseGovernance;
  readonly options: GovernanceServiceOptions;
  readonly registry: ReleaseRegistry;
  readonly ledger: InMemoryReleaseEvidenceLedger;
  readonly clock: ManualClock;
  readonly audit: InMemoryAuditSink;
  readonly counters: InMemoryChangeCounters;
  readonly logger: RecordingLogger;
  readonly events: PlatformEvent[];
  readonly alerts: ReleaseAlertPayload[];
  /** Start-up registration over the harness's catalog. */
  register(): Promise<StartupRegistrationReport>;
  /** Records evidence of `kinds` for `version`, bound to `hash` (default: the row's artifact hash). */
  evidence(
    version: string,
    kinds?: readonly EvidenceKind[],
    hash?: string,
    content?: Record<string, unknown>,
  ): Promise<void>;
  /** Puts `rows` (version → state) into PLATFORM_GLOBAL, made from the catalog's manifests. */
  seed(states: Readonly<Record<string, ReleaseState>>, extra?: Partial<ReleaseRow>): Promise<void>;
  /** The PLATFORM_GLOBAL row of `version`. */
  row(version: string): Promise<ReleaseRow | undefined>;
  /** The state of each version in PLATFORM_GLOBAL. */
  states(): Promise<Record<string, ReleaseState>>;
}

/** Wires the service over in-memory stores (or `options.registry`) on a ManualClock. */
export function governanceHarness(options: HarnessOptions = {}): GovernanceHarness {
  const clock = new ManualClock(Date.UTC(2026, 9, 1));
  const registry = options.registry ?? new InMemoryReleaseRegistry();
  const ledger = new InMemoryReleaseEvidenceLedger();
  const audit = new InMemoryAuditSink(10_000, clock);
  const counters = options.counters ?? new InMemoryChangeCounters();
  const logger = new RecordingLogger();
  const events: PlatformEvent[] = [];
  const alerts: ReleaseAlertPayload[] = [];
  const bus = new InProcessEventBus();
  bus.on("*", (e) => {
    events.push(e);
  });
  const catalog = options.catalog ?? buildCatalog();
  const ids = new CountingIds();
  const recorder = new ReleaseChangeRecorder({
    registry,
    audit,
    logger,
    notifier: new ReleaseChangeNotifier({ counters, events: bus, logger }),
  });
  const serviceOptions: GovernanceServiceOptions = {
    registry,
    ledger,
    catalog,
    gate: new LedgerKindGate(ledger),
    clock,
    ids,
    recorder,
    policySets: options.policySets === null ? undefined : (options.policySets ?? new FixedPolicySets()),
    approvalDeadlineMs: 86_400_000,
    retry: options.retry,
  };
  const governance = new DefaultReleaseGovernance(serviceOptions, async (p) => {
    alerts.push(p);
    await bus.publish(RELEASE_ALERT_EVENT, p);
  });
  const row = async (v: string) =>
    (await registry.head(PLATFORM_GLOBAL_SCOPE)).releases.find((r) => r.promptVersion === v);
  return {
    governance,
    options: serviceOptions,
    registry,
    ledger,
    clock,
    audit,
    counters,
    logger,
    events,
    alerts,
    register: () =>
      registerBuildReleases({
        registry,
        catalog,
        clock,
        ids,
        recorder,
        policySets: serviceOptions.policySets,
        retry: options.retry,
      }),
    async evidence(version, kinds = ALL_KINDS, hash, content = {}) {
      const bundleHash =
        hash ?? (await row(version))?.artifactHash ?? catalog.find(version)!.manifest.bundleHash;
      for (const kind of kinds)
        await ledger.record({
          kind,
          promptKey: KEY,
          promptVersion: version,
          bundleHash,
          recordedBy: "alice",
          recordedAt: clock.now(),
          content,
          contentHash: sha256Hex(canonicalJson(content as never)),
        });
    },
    async seed(states, extra = {}) {
      const head = await registry.head(PLATFORM_GLOBAL_SCOPE);
      const releases = Object.entries(states).map(([version, status]): ReleaseRow => {
        const m = catalog.find(version)?.manifest ?? manifestLike(manifest(V20), { promptVersion: version });
        return {
          registryScope: PLATFORM_GLOBAL_SCOPE,
          promptKey: KEY,
          templateKey: m.descriptor.templateKey,
          promptVersion: version,
          status,
          contractVersion: m.descriptor.contractVersion,
          artifactHash: m.bundleHash,
          rollbackTargets: m.rollbackTargets,
          registeredAt: clock.now(),
          updatedAt: clock.now(),
          ...extra,
        };
      });
      await registry.replaceHead(PLATFORM_GLOBAL_SCOPE, head.revision, { releases, openExecutions: [] });
    },
    row,
    async states() {
      const head = await registry.head(PLATFORM_GLOBAL_SCOPE);
      return Object.fromEntries(head.releases.map((r) => [r.promptVersion, r.status]));
    },
  };
}
