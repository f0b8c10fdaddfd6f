import { existsSync, readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selectionFromCatalog } from "../../decisions/engine/bundle-selection.js";
import { inProcessDecisionMaker } from "../../decisions/engine/in-process-decision-maker.js";
import { sealedEvidenceFixture } from "../../decisions/evidence/sealed-evidence.fixture.js";
import { sealPackage } from "../../decisions/evidence/sealed-package.js";
import { verifyPackageSeal } from "../../decisions/evidence/package-seal-check.js";
import { OfflineAnalyst } from "../../decisions/analyst/offline-analyst.js";
import { ManualClock } from "../../kernel/clock.js";
import type { Logger } from "../../kernel/logger.js";
import { parsePromptInput } from "../../prompts/input/prompt-input.js";
import { readGoldenInputs } from "../../prompts/manifest/bundle-root.js";
import { inThreadShadowExecutor, type ShadowExecutor, type ShadowJob } from "./shadow-executor.js";
import { shadowEvidencePackage } from "./shadow-evidence-package.js";
import { CATALOG, V20 } from "./shadow-runner.fixture.js";
import { ShadowWorkerExecutor } from "./shadow-worker-executor.js";
import { shadowExecutorOf } from "./shadow-executor-choice.js";
import { createPlatform } from "../../kernel/platform.js";
import { promptsPlugin } from "../../prompts/prompts-plugin.js";
import { promptGovernancePlugin } from "../governance-plugin.js";
import { decisionsPlugin } from "../../decisions/decisions-plugin.js";
import { DecisionMaker } from "../../decisions/pipeline/decision-maker.js";

const ENGINE = { escalationConfidence: 0.6, timeouts: { L1: 5_000, L2: 10_000 } };
const INSTANCE = "node-1";
const clock = new ManualClock(Date.UTC(2026, 10, 1));
const inThreadMaker = inProcessDecisionMaker(clock, ENGINE);

/** The nice value of each thread of this process (Linux), from the 19th field of its stat. */
function threadNiceValues(): number[] {
  return readdirSync("/proc/self/task").map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });
}

/** A logger that keeps what it was told. */
function recordingLogger(): Logger & { lines: { message: string; fields?: unknown }[] } {
  const lines: { message: string; fields?: unknown }[] = [];
  const keep = (message: string, fields?: unknown) => void lines.push({ message, fields });
  return { lines, info: keep, warn: keep, error: keep };
}

/** The external-admin-delete golden input as a v20 SHADOW run of event `id`. */
function job(id: string, selection = selectionFromCatalog(CATALOG, V20, "SHADOW")): ShadowJob {
  const raw = readGoldenInputs(CATALOG.root, ["external-admin-delete"]).get("external-admin-delete");
  return {
    id,
    at: clock.now(),
    input: parsePromptInput(raw),
    event: {
      id: `evt-${id}`,
      kind: "SIGN_IN_COMPLETED",
      at: clock.now(),
      userId: "alice",
      correlationId: `c-${id}`,
    },
    selection,
  };
}

// One worker for the file: its start from the sources (tsx) is the slow part.
const logger = recordingLogger();
let worker: ShadowWorkerExecutor;
beforeAll(async () => {
  worker = new ShadowWorkerExecutor({
    init: { bundleRoot: CATALOG.root, instanceId: INSTANCE, engine: ENGINE },
    fallback: inThreadShadowExecutor(inThreadMaker),
    logger,
    // A short window keeps the file fast; runs handed over in one turn still share a batch.
    batchWindowMs: 5,
  });
  expect(await worker.started).toBe(true);
}, 30_000);
afterAll(() => worker.stop());

describe("ShadowWorkerExecutor", () => {
  it("decides on the worker as the serving thread would, and presealed evidence records intact", async () => {
    const j = job("w-1");
    const here = await inThreadMaker.decide(j, new AbortController().signal);
    const { outcome, presealed } = await worker.run(j, new AbortController().signal);
    const { timings: _a, ...there } = outcome;
    const { timings: _b, ...expected } = here;
    expect(there).toEqual(expected);
    expect(outcome.action).toBe("BLOCK");
    expect(worker.stats()).toMatchObject({ executor: "worker", workerRuns: 1, inThreadRuns: 0 });
    // On Linux the worker thread runs at nice 19 (it yields the core to the serving thread).
    if (existsSync("/proc/self/task")) expect(threadNiceValues()).toContain(19);

    // The worker's hashes are the ones the serving thread computes for the same package.
    const pkg = shadowEvidencePackage({ ...j, outcome });
    const local = sealPackage(pkg, INSTANCE);
    expect(presealed!.header).toEqual(local.header);
    expect(presealed!.packageHash).toBe(local.packageHash);

    // Recorded: only the data key is wrapped here; the package opens and its seal holds.
    const evidence = sealedEvidenceFixture({ clock, instanceId: INSTANCE });
    expect(await evidence.sealed.record(pkg, presealed)).toEqual({ sealed: true });
    expect(presealed!.body.dataKey.every((b) => b === 0)).toBe(true); // zeroed once wrapped
    const read = await evidence.sealed.read("w-1", { principal: "test" });
    expect(read!.seal).toMatchObject({ intact: true, reason: null, packageHash: local.packageHash });
    expect(read!.payload).toEqual(local.payload);
    const entry = await evidence.store.packageEntry("w-1");
    expect(
      verifyPackageSeal({ header: entry!.header!, packageHash: entry!.entryHash, payload: read!.payload! })
        .reason,
    ).toBeNull();
  });

  it("ignores a presealed part of another package or chain and seals on the serving thread", async () => {
    const j = job("w-2");
    const { outcome, presealed } = await worker.run(j, new AbortController().signal);
    const evidence = sealedEvidenceFixture({ clock, instanceId: "node-2" });
    await evidence.sealed.record(shadowEvidencePackage({ ...j, outcome }), presealed);
    const read = await evidence.sealed.read("w-2", { principal: "test" });
    expect(read!.seal).toMatchObject({ intact: true, instanceId: "node-2" });
  });

  it("runs a bundle the worker's catalog does not hold with that hash on the serving thread", async () => {
    const before = worker.stats().inThreadRuns;
    const foreign = { ...selectionFromCatalog(CATALOG, V20, "SHADOW"), bundleHash: "0".repeat(64) };
    const { outcome, presealed } = await worker.run(job("w-3", foreign), new AbortController().signal);
    expect(outcome.bundleVersion).toBe(V20);
    expect(presealed).toBeUndefined();
    expect(worker.stats().inThreadRuns).toBe(before + 1);
  });

  it("posts runs handed over together in one batch and answers each; one aborted meanwhile is left out", async () => {
    const before = worker.stats();
    const controller = new AbortController();
    const runs = ["b-1", "b-2", "b-3", "b-4"].map((id, i) =>
      worker.run(job(id), i === 2 ? controller.signal : new AbortController().signal),
    );
    controller.abort(new Error("timeout"));
    const settled = await Promise.allSettled(runs);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(settled.map((s) => (s.status === "fulfilled" ? s.value.presealed?.header.id : null))).toEqual([
      "b-1",
      "b-2",
      null,
      "b-4",
    ]);
    const after = worker.stats();
    expect(after.workerRuns - before.workerRuns).toBe(3);
    expect(after.workerBatches - before.workerBatches).toBe(1);
  });

  it("fails an aborted or uncloneable run alone; the worker goes on", async () => {
    const controller = new AbortController();
    const aborted = worker.run(job("w-4"), controller.signal);
    controller.abort(new Error("timeout"));
    await expect(aborted).rejects.toThrow("timeout");
    await expect(worker.run(job("w-5"), AbortSignal.abort())).rejects.toThrow();
    const hostile = {
      ...job("w-6"),
      event: { ...job("w-6").event, toJSON: () => "x" },
    } as unknown as ShadowJob;
    await expect(worker.run(hostile, new AbortController().signal)).rejects.toThrow(/clone/i);
    expect((await worker.run(job("w-7"), new AbortController().signal)).presealed).toBeDefined();
    expect(worker.stats()).toMatchObject({ executor: "worker", workerFailures: 0 });
  });

  it("falls back to the serving thread when the worker cannot start: logged once, counted, runs go on", async () => {
    const broken = recordingLogger();
    const executor = new ShadowWorkerExecutor({
      init: { bundleRoot: CATALOG.root, instanceId: INSTANCE, engine: ENGINE },
      fallback: inThreadShadowExecutor(inThreadMaker),
      logger: broken,
      entry: () =>
        new URL(`data:text/javascript,${encodeURIComponent("throw new Error('secret-ish detail')")}`),
    });
    expect(await executor.started).toBe(false);
    const { outcome } = await executor.run(job("w-8"), new AbortController().signal);
    expect(outcome.bundleVersion).toBe(V20);
    expect(executor.stats()).toEqual({
      executor: "in-thread",
      workerRuns: 0,
      workerBatches: 0,
      inThreadRuns: 1,
      workerFailures: 1,
    });
    expect(broken.lines).toEqual([
      { message: "shadow worker error; shadow runs go on the serving thread", fields: { error: "Error" } },
    ]);
    await executor.stop();
  });

  it("runs a batch handed over while the worker is not serving on the serving thread one at a time", async () => {
    let running = 0;
    let most = 0;
    const counting: ShadowExecutor = {
      async run(j, signal) {
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        return inThreadShadowExecutor(inThreadMaker).run(j, signal);
      },
      stats: () => inThreadShadowExecutor(inThreadMaker).stats(),
      stop: async () => {},
    };
    const executor = new ShadowWorkerExecutor({
      init: { bundleRoot: CATALOG.root, instanceId: INSTANCE, engine: ENGINE },
      fallback: counting,
      logger: recordingLogger(),
      entry: () => new URL(`data:text/javascript,${encodeURIComponent("throw new Error('no')")}`),
    });
    expect(await executor.started).toBe(false);
    const signal = new AbortController().signal;
    const runs = await Promise.all(["s-1", "s-2", "s-3"].map((id) => executor.run(job(id), signal)));
    expect(runs.map((r) => r.outcome.bundleVersion)).toEqual([V20, V20, V20]);
    expect(most).toBe(1);
    expect(executor.concurrency).toBeGreaterThan(1);
    await executor.stop();
  });

  it("names the built-in analyst as the offline analyst does", () => {
    expect(new OfflineAnalyst().name).toBe("builtin:offline-analyst/1");
  });
});

describe("shadowExecutorOf", () => {
  const platformWith = (properties: Record<string, string> = {}) =>
    createPlatform({
      plugins: [promptsPlugin, promptGovernancePlugin, decisionsPlugin],
      properties,
      env: {},
    });
  const choose = (properties: Record<string, string> = {}) => {
    const platform = platformWith(properties);
    return shadowExecutorOf(platform.container, platform.resolve(DecisionMaker), INSTANCE, recordingLogger());
  };

  it("runs the decisions plugin's built-in analyst on a worker", async () => {
    const executor = choose();
    expect(executor).toBeInstanceOf(ShadowWorkerExecutor);
    await executor.stop();
  });

  it("keeps IN_THREAD, a model behind HTTP and a host's own maker on the serving thread", () => {
    expect(
      choose({ "platform.security.tiered.prompt-bundle.shadow.executor": "in-thread" }),
    ).not.toBeInstanceOf(ShadowWorkerExecutor);
    expect(
      choose({
        "platform.security.decision.model.provider": "openai-compatible",
        "platform.security.decision.model.base-url": "http://127.0.0.1:9/v1",
      }),
    ).not.toBeInstanceOf(ShadowWorkerExecutor);
    const platform = platformWith();
    const hostMaker = {
      model: { id: "builtin:offline-analyst/1", external: false },
      decide: inThreadMaker.decide,
    };
    const bare = createPlatform({
      plugins: [promptsPlugin, promptGovernancePlugin],
      properties: {},
      env: {},
    });
    expect(shadowExecutorOf(bare.container, hostMaker, INSTANCE, recordingLogger())).not.toBeInstanceOf(
      ShadowWorkerExecutor,
    );
    expect(platform.resolve(DecisionMaker).model.id).toBe(hostMaker.model.id);
  });

  it("refuses a value that is not an executor at start-up, naming the key", () => {
    expect(() =>
      platformWith({ "platform.security.tiered.prompt-bundle.shadow.executor": "threads" }),
    ).toThrow(/shadow\.executor/);
  });
});
