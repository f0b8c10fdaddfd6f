import { afterEach, describe, expect, it, vi } from "vitest";
import { sampleBucketOf } from "../../decisions/evidence/evidence-capture.js";
import { sealedEvidenceFixture } from "../../decisions/evidence/sealed-evidence.fixture.js";
import { InMemoryReleaseRegistry } from "../../governance/registry/in-memory-release-registry.js";
import { PLATFORM_GLOBAL_SCOPE } from "../../governance/registry/release-registry.js";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryDistributedLock } from "../../kernel/coordination/in-memory-distributed-lock.js";
import { codeOf } from "../../kernel/error-code.test-support.js";
import { loadBundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import { cleanPackage, releaseRows } from "../corpus/clean-packages.fixture.js";
import { INSPECTOR_VERSION } from "../inspection-result.js";
import { InMemoryInspectionResultStore } from "../results/in-memory-inspection-result-store.js";
import { INSPECTION_LOCK, InspectionRound } from "./inspection-round.js";
import { PromptInspection } from "./prompt-inspection.js";
import { ReinspectionJobs } from "./reinspection-jobs.js";
import { pipelineFixture } from "../../decisions/pipeline/decision-pipeline.fixture.js";
import { RecordingLogger } from "../../identity/tokens/token-service.test-support.js";
import type { PromptInspectionSettings } from "../inspection.properties.js";
import { InspectionScheduler } from "./inspection-scheduler.js";

const catalog = loadBundleCatalog();
const template = cleanPackage(catalog, { golden: "external-admin-delete", id: "template" });
const T0 = 1_760_000_000_000;

async function world(o: { packages?: number; batchSize?: number; samplePercent?: number } = {}) {
  const clock = new ManualClock(T0 + 1_000_000);
  const evidence = sealedEvidenceFixture({ clock });
  const registry = new InMemoryReleaseRegistry();
  await registry.replaceHead(PLATFORM_GLOBAL_SCOPE, 0, {
    releases: releaseRows(catalog),
    openExecutions: [],
  });
  const results = new InMemoryInspectionResultStore();
  const inspection = new PromptInspection({ evidence: evidence.sealed, results, catalog, registry, clock });
  const ids: string[] = [];
  for (let i = 0; i < (o.packages ?? 7); i++) {
    const id = `pkg-${String(i).padStart(3, "0")}`;
    ids.push(id);
    await evidence.sealed.record({ ...template, id, at: T0 + i });
  }
  const jobs = new ReinspectionJobs({
    store: evidence.store,
    now: () => clock.now(),
    newId: () => "RIJ-1",
    instanceId: "node-1",
  });
  const lock = new InMemoryDistributedLock(clock);
  const round = new InspectionRound({
    inspection,
    store: evidence.store,
    results,
    jobs,
    lock,
    owner: "node-1:inspection",
    batchSize: o.batchSize ?? 3,
    samplePercent: o.samplePercent ?? 100,
    now: () => clock.now(),
  });
  const inspectedIds = async () =>
    (await results.list({ inspectorVersion: INSPECTOR_VERSION, limit: 500 })).results
      .map((r) => r.packageId)
      .sort();
  return { clock, evidence, results, inspection, ids, jobs, lock, round, inspectedIds };
}

describe("the inspection service over stored packages", () => {
  it("inspects a sealed v20 package with its real seal, reasons and release row: PASS, saved under the current version", async () => {
    const { inspection, results } = await world({ packages: 1 });
    const r = await inspection.inspect("pkg-000");
    expect(r?.verdict).toBe("PASS");
    expect(r?.checks.find((c) => c.check === "SEAL_INTEGRITY")?.status).toBe("PASS");
    expect(r?.checks.find((c) => c.check === "BUNDLE_TRACE")?.status).toBe("PASS");
    expect(r?.checks.find((c) => c.check === "REASON_MATCH")).toMatchObject({ status: "PASS" });
    expect(r!.checks.find((c) => c.check === "REASON_MATCH")!.items).toBeGreaterThan(0);
    expect(r?.release).toMatchObject({
      promptVersion: template.metadata.release!.promptVersion,
      status: "ACTIVE",
    });
    expect(await results.get("pkg-000", INSPECTOR_VERSION)).toEqual(r);
    expect(await results.latestInspectionOutcome("pkg-000")).toBe("NOTHING_WRONG");
    expect(await inspection.inspect("no-such-package")).toBeUndefined();
  });

  it("a package whose payload was erased is saved as ERROR PAYLOAD_ERASED (it keeps the full retention)", async () => {
    const { inspection, evidence, results } = await world({ packages: 1 });
    await evidence.store.destroyPayloadKey("pkg-000");
    expect(await inspection.inspect("pkg-000")).toMatchObject({
      verdict: "ERROR",
      error: { code: "PAYLOAD_ERASED" },
    });
    expect(await results.latestInspectionOutcome("pkg-000")).toBe("FINDINGS");
  });
});

describe("the automatic round", () => {
  it("inspects the oldest uninspected packages, a batch per round, until none is left", async () => {
    const { round, ids, inspectedIds } = await world();
    expect(await round.runOnce()).toEqual({ ran: true, inspected: 3, reinspected: 0 });
    expect(await inspectedIds()).toEqual(ids.slice(0, 3));
    expect((await round.runOnce()).inspected).toBe(3);
    expect((await round.runOnce()).inspected).toBe(1);
    expect((await round.runOnce()).inspected).toBe(0);
    expect(await inspectedIds()).toEqual(ids);
  });

  it("does nothing while another instance holds the lock, and gives the lock up after a round", async () => {
    const { round, lock, inspectedIds } = await world();
    await lock.tryAcquire(INSPECTION_LOCK, "node-2:inspection", 60_000);
    expect(await round.runOnce()).toEqual({ ran: false, inspected: 0, reinspected: 0 });
    expect(await inspectedIds()).toEqual([]);
    await lock.release(INSPECTION_LOCK, "node-2:inspection");
    expect((await round.runOnce()).ran).toBe(true);
    expect(await lock.tryAcquire(INSPECTION_LOCK, "node-2:inspection", 60_000)).toBeDefined();
  });

  it("inspects sample-percent of the packages by a stable hash of the package id", async () => {
    const { round, ids, inspectedIds } = await world({ packages: 12, batchSize: 50, samplePercent: 50 });
    await round.runOnce();
    await round.runOnce();
    const expected = ids.filter((id) => sampleBucketOf(id) < 50);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(ids.length);
    expect(await inspectedIds()).toEqual(expected);
  });

  it("a new inspector version inspects again: another version's results do not count", async () => {
    const { round, results, ids, inspectedIds } = await world({ packages: 3 });
    for (const id of ids)
      await results.save({
        packageId: id,
        capturedAt: T0,
        inspectedAt: T0,
        inspectorVersion: "prompt-inspector/0",
        dictionaryVersion: "v20@old",
        verdict: "PASS",
        checks: [],
        findings: [],
      });
    expect((await round.runOnce()).inspected).toBe(3);
    expect(await inspectedIds()).toEqual(ids);
  });
});

describe("reinspection of a capture period", () => {
  it("is worked through by the round in batches, one job at a time, its progress readable", async () => {
    const { round, jobs, clock, results } = await world();
    await round.runOnce();
    await round.runOnce();
    await round.runOnce();
    clock.advance(5_000);
    const job = await jobs.start({ from: T0 + 2, to: T0 + 6 }, "admin");
    expect(job).toMatchObject({
      state: "RUNNING",
      total: 4,
      inspected: 0,
      requestedBy: "admin",
      instanceId: "node-1",
    });
    expect(await codeOf(jobs.start({ from: T0, to: T0 + 1 }, "admin2"))).toBe("CONFLICT");
    expect(await round.runOnce()).toEqual({ ran: true, inspected: 0, reinspected: 3 });
    expect(jobs.status()).toMatchObject({ state: "RUNNING", inspected: 3 });
    expect((await round.runOnce()).reinspected).toBe(1);
    await round.runOnce();
    expect(jobs.status()).toMatchObject({ state: "DONE", inspected: 4, finishedAt: clock.now() });
    const again = (await results.list({ inspectorVersion: INSPECTOR_VERSION, limit: 500 })).results.filter(
      (r) => r.inspectedAt === clock.now(),
    );
    expect(again.map((r) => r.packageId).sort()).toEqual(["pkg-002", "pkg-003", "pkg-004", "pkg-005"]);
    expect((await jobs.start({ from: T0, to: T0 + 1 }, "admin2")).total).toBe(1);
  });
});

describe("a package the decision pipeline sealed, inspected", () => {
  it("a v20 decision's package carries its reasons and seal: SEAL_INTEGRITY passes, REASON_MATCH checks the reasons", async () => {
    const f = await pipelineFixture({ "platform.security.tiered.prompt-bundle.active": "2026.09.15-v20" });
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED"));
    await f.pipeline.idle();
    const [entry] = await f.evidence.store.keptPackages(Number.MAX_SAFE_INTEGER, 10);
    expect(entry?.header?.metadata.bundleVersion).toBe("2026.09.15-v20");
    expect(entry!.header!.metadata.reasons!.length).toBeGreaterThan(0);
    const inspection = new PromptInspection({
      evidence: f.evidence.sealed,
      results: new InMemoryInspectionResultStore(),
      catalog: loadBundleCatalog(),
      clock: f.clock,
    });
    const r = await inspection.inspect(entry!.packageIds[0]!);
    const status = (check: string) => r!.checks.find((c) => c.check === check)?.status;
    // The fixture's event has no correlation id and the fixture no registry: nothing else is found,
    // and the seal itself (hash, prompts, context, clear fields) holds.
    expect(r!.findings.map((x) => `${x.kind}:${x.check}:${x.reason}`)).toEqual([
      "UNVERIFIABLE:SEAL_INTEGRITY:NO_CORRELATION_ID",
      "UNVERIFIABLE:BUNDLE_TRACE:NO_REGISTRY",
    ]);
    expect(r!.checks.find((c) => c.check === "REASON_MATCH")).toMatchObject({ status: "PASS" });
    expect(r!.checks.find((c) => c.check === "REASON_MATCH")!.items).toBeGreaterThan(0);
    expect(status("DICTIONARY_CONTRACT")).toBe("PASS");
  });
});

afterEach(() => {
  vi.useRealTimers();
});

const settings = { intervalMs: 30_000, initialDelayMs: 10_000 } as PromptInspectionSettings;

describe("the inspection scheduler", () => {
  it("runs the first round after the initial delay, then every interval, until stopped; a failure is logged once", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    let runs = 0;
    const round = {
      runOnce: async () => {
        runs++;
        if (runs === 2 || runs === 3) throw new Error("store down");
        return { ran: true, inspected: 0, reinspected: 0 };
      },
    } as unknown as InspectionRound;
    const logger = new RecordingLogger();
    const scheduler = new InspectionScheduler({ round, settings, logger });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(90_000);
    expect(runs).toBe(4);
    expect(logger.lines.filter((e) => e.message === "prompt inspection round failed")).toHaveLength(1);
    expect(logger.lines.filter((e) => e.message === "prompt inspection round recovered")).toHaveLength(1);
    await scheduler.stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(runs).toBe(4);
  });
});
