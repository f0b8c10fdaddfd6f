import { InMemoryDecisionHistoryStore } from "../../../packages/core/src/decisions/history/in-memory-decision-history-store.js";
import { InMemoryUserRepository } from "../../../packages/core/src/identity/users/in-memory-user-repository.js";
import { ManualClock } from "../../../packages/core/src/kernel/clock.js";
import { CryptoIdGenerator } from "../../../packages/core/src/kernel/id-generator.js";
import {
  cleanPackage,
  releaseRows,
  rowLookup,
  V19,
} from "../../../packages/core/src/inspection/corpus/clean-packages.fixture.js";
import { BROKEN_CASES } from "../../../packages/core/src/inspection/corpus/broken-packages.fixture.js";
import { withSeal } from "../../../packages/core/src/inspection/corpus/corpus-seal.fixture.js";
import { verifySealedPackage } from "../../../packages/core/src/inspection/checks/sealed-package-verifier.js";
import {
  type InspectorOptions,
  inspectPackage,
} from "../../../packages/core/src/inspection/inspect-package.js";
import type { InspectedPackage } from "../../../packages/core/src/inspection/inspected-package.js";
import { StoreFactSourceVerifier } from "../../../packages/core/src/inspection/sample/store-fact-source-verifier.js";
import type { BundleCatalog } from "../../../packages/core/src/prompts/manifest/bundle-catalog.js";

/** What one run measured. */
export interface InspectorBench {
  readonly packages: number;
  /** Process CPU time (user + system) of the measured inspections, milliseconds. */
  readonly cpuMs: number;
  readonly wallMs: number;
  /** Packages inspected per second of one core's CPU time. */
  readonly perCoreSecond: number;
  readonly verdicts: Readonly<Record<string, number>>;
}

/**
 * The packages the bench cycles through: the clean corpus (v20 L1, v20 L1+L2, v19, a masked one)
 * and every broken case, sealed, with a verifier answering from the platform's in-memory stores.
 */
export async function benchPackages(
  catalog: BundleCatalog,
): Promise<{ packages: InspectedPackage[]; clean: number; options: InspectorOptions }> {
  const clean = [
    { golden: "internal-read" },
    { golden: "partly-known" },
    { golden: "external-admin-delete", layers: ["L1", "L2"] as const },
    { golden: "long-history", layers: ["L1", "L2"] as const },
    { golden: "internal-read", redact: true },
    { golden: "internal-read", version: V19 },
  ].map((from) => cleanPackage(catalog, from));
  const brokenFrom = BROKEN_CASES.map((c) => cleanPackage(catalog, { ...c.from, id: `bench-${c.name}` }));
  const world = await hostRecordsOf([...clean, ...brokenFrom]);
  const owned = (p: InspectedPackage) => ({ ...p, metadata: { ...p.metadata, userId: world.userIdOf(p) } });
  const broken = BROKEN_CASES.map((c, i) => {
    const pkg = owned(brokenFrom[i]!);
    return c.sealed === "BEFORE" ? withSeal(c.change(pkg)) : c.change(withSeal(pkg));
  });
  const packages = [...clean.map((p) => withSeal(owned(p))), ...broken];
  const options: InspectorOptions = {
    catalog,
    verifySeal: verifySealedPackage,
    releaseRow: rowLookup(releaseRows(catalog)),
    verifier: new StoreFactSourceVerifier({ users: world.users, history: world.history }),
    now: 1,
  };
  return { packages, clean: clean.length, options };
}

/** The host's records the packages' contexts were drawn from: one account per subject, its past decisions. */
async function hostRecordsOf(packages: readonly InspectedPackage[]) {
  const clock = new ManualClock(0);
  const users = new InMemoryUserRepository({ ids: new CryptoIdGenerator(), clock });
  const history = new InMemoryDecisionHistoryStore();
  const ids = new Map<string, string>();
  for (const { input, at } of packages) {
    const subject = input.request.subject ?? "nobody";
    if (ids.has(subject)) continue;
    clock.set(at - (input.identity.accountAgeDays ?? 0) * 86_400_000 - 3_600_000);
    const account = await users.create({
      username: subject,
      authorities: [...(input.request.roles ?? []), ...(input.request.permissions ?? [])],
    });
    ids.set(subject, account.id);
    for (const r of input.pastRecords)
      await history
        .append({
          id: r.id,
          at: Date.parse(r.time),
          eventId: r.id,
          eventKind: "SIGN_IN_COMPLETED",
          userId: account.id,
          action: r.decision,
        })
        .catch(() => undefined);
  }
  return { users, history, userIdOf: (p: InspectedPackage) => ids.get(p.input.request.subject ?? "nobody")! };
}

/** Inspects `count` packages (cycling through `packages`) after `warmup` more, timing CPU and wall clock. */
export async function measureInspector(
  packages: readonly InspectedPackage[],
  options: InspectorOptions,
  count: number,
  warmup: number,
): Promise<InspectorBench> {
  for (let i = 0; i < warmup; i++) await inspectPackage(packages[i % packages.length]!, options);
  const verdicts: Record<string, number> = {};
  const wall = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const r = await inspectPackage(packages[i % packages.length]!, options);
    verdicts[r.verdict] = (verdicts[r.verdict] ?? 0) + 1;
  }
  const used = process.cpuUsage(cpu);
  const wallMs = performance.now() - wall;
  const cpuMs = (used.user + used.system) / 1000;
  return { packages: count, cpuMs, wallMs, perCoreSecond: Math.round((count / cpuMs) * 1000), verdicts };
}
