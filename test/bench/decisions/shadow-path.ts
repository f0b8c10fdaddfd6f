import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { serveHttp } from "@keyward/adapters-http";
import { buildDemoPlatform } from "@keyward/cli";
import { ServerAddress } from "@keyward/core";
import { DecisionPipeline } from "@keyward/core/decisions";
import { ShadowDecisions } from "../../../packages/core/src/decisions/pipeline/shadow-decisions.js";
import {
  EvidenceIntake,
  ReleaseGovernance,
} from "../../../packages/core/src/governance/release-governance.js";
import type { ShadowRunner } from "../../../packages/core/src/governance/shadow/shadow-runner.js";
import { BundleCatalog } from "../../../packages/core/src/prompts/bundle-catalog-token.js";

/** One demo server of the shadow measurement. */
interface Demo {
  label: "shadow off" | "shadow on";
  base: string;
  /** A bearer token of `user` (the ordinary path). */
  authorization: string;
  close(): Promise<void>;
  decided(): number;
  shadowRuns(): number;
  /** Where the shadow runs ran (the runner's executor counters); undefined with shadow off. */
  executor(): { executor: string; workerRuns: number; inThreadRuns: number } | undefined;
}

/** Where the "shadow on" server runs its shadow runs: `BENCH_SHADOW_EXECUTOR` (default WORKER). */
export const SHADOW_EXECUTOR_UNDER_TEST = (process.env.BENCH_SHADOW_EXECUTOR ?? "WORKER").toUpperCase();

/** p50/p99 and requests per second of one server over one run's rounds. */
export interface ShadowPathRow {
  shadow: Demo["label"];
  requests: number;
  p50Ms: number;
  p99Ms: number;
  rps: number;
  decided: number;
  shadowRuns: number;
  /** Serving-thread (event loop) busy time per request, ms: the load generator's share is the same for both. */
  loopMsPerRequest: number;
  /** Runs on the worker / on the serving thread in this run (shadow on only). */
  workerRuns?: number;
  inThreadRuns?: number;
}

const V20 = "2026.09.15-v20";
const CHANGE_RECORD = "prompt-bundles/evidence-examples/2026.09.15-v20/change-record.json";

/** Puts v20 in SHADOW through the governance services, on the CHANGE_RECORD example. */
export async function v20InShadow(
  platform: Awaited<ReturnType<typeof buildDemoPlatform>>["platform"],
): Promise<void> {
  const entry = platform.resolve(BundleCatalog).find(V20)!;
  const promptKey = entry.manifest.descriptor.promptKey;
  const actor = { username: "bench" };
  await platform.resolve(EvidenceIntake).submit(
    {
      kind: "CHANGE_RECORD",
      promptKey,
      promptVersion: V20,
      bundleHash: entry.manifest.bundleHash,
      content: JSON.parse(readFileSync(CHANGE_RECORD, "utf8")),
    },
    actor,
  );
  const receipt = await platform
    .resolve(ReleaseGovernance)
    .transition({ promptKey, promptVersion: V20, targetReleaseStatus: "SHADOW", rationale: "bench" }, actor);
  if (receipt.outcome !== "APPLIED") throw new Error(`v20 to SHADOW: ${JSON.stringify(receipt.blockers)}`);
}

async function startDemo(label: Demo["label"]): Promise<Demo> {
  const on = label === "shadow on";
  const demo = await buildDemoPlatform(
    {
      properties: {
        // Cheap sign-ins, so the decision and its shadow run are a visible share of a request.
        "platform.auth.password.scrypt.cost-log2": 10,
        "platform.auth.password.scrypt.allow-low-cost": true,
        "platform.auth.ott.outbox-file": `/tmp/bench-shadow-${on ? "on" : "off"}-${process.pid}.jsonl`,
        // Every sign-in is decided (none kept as recent), without a model-call cap.
        "platform.security.decision.redecide-after": 0,
        "platform.security.decision.calls-per-minute": 1_000_000,
        "platform.security.decision.calls-per-day": 100_000_000,
        "platform.security.decision.calls-per-user-per-minute": 1_000_000,
        ...(on
          ? {
              "platform.security.tiered.prompt-bundle.shadow.sample-percent": 100,
              "platform.security.tiered.prompt-bundle.shadow.daily-call-cap": 10_000_000,
              "platform.security.tiered.prompt-bundle.shadow.executor": SHADOW_EXECUTOR_UNDER_TEST,
            }
          : {}),
      },
    },
    {},
  );
  if (on) await v20InShadow(demo.platform);
  const server = await serveHttp(demo.app, { port: 0, hostname: "127.0.0.1" });
  demo.platform.resolve(ServerAddress).port = server.port;
  const base = `http://127.0.0.1:${server.port}`;
  const runner = () => (on ? (demo.platform.resolve(ShadowDecisions) as ShadowRunner) : undefined);
  if (SHADOW_EXECUTOR_UNDER_TEST === "WORKER" && on) await workerServing(runner()!);
  return {
    label,
    base,
    authorization: `Bearer ${await accessToken(base)}`,
    decided: () => demo.platform.resolve(DecisionPipeline).stats().decided,
    shadowRuns: () => runner()?.stats().admitted ?? 0,
    executor: () => runner()?.stats(),
    async close() {
      await server.close(true);
      await demo.platform.stop();
    },
  };
}

/** Waits (up to 20 s) until the runner's worker serves, so the rounds measure it and not its start. */
export async function workerServing(runner: ShadowRunner): Promise<void> {
  const end = performance.now() + 20_000;
  while (runner.stats().executor !== "worker") {
    if (performance.now() > end) throw new Error("the shadow worker did not start");
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function accessToken(base: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "user", password: "password" }),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/** One bearer `GET /api/orders` (the ordinary path: the demo decides a handful of them); its latency in ms. */
async function orders(demo: Demo): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${demo.base}/api/orders`, { headers: { authorization: demo.authorization } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${demo.label}: /api/orders answered ${res.status}`);
  return performance.now() - t;
}

/** One `POST /api/login` as `user`; its latency in ms. */
async function signIn(demo: Demo): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${demo.base}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "user", password: "password" }),
  });
  const body = await res.text();
  if (res.status !== 200)
    throw new Error(`${demo.label}: /api/login answered ${res.status} ${body.slice(0, 200)}`);
  return performance.now() - t;
}

/** A request of the measurement: a sign-in (the worst case) or a bearer GET /api/orders. */
type Request = (demo: Demo) => Promise<number>;

/** `connections` closed loops of `request` for `durationMs`: how many a second the server answers. */
async function capacity(
  demo: Demo,
  connections: number,
  durationMs: number,
  request: Request = signIn,
): Promise<number> {
  let n = 0;
  const start = performance.now();
  const end = start + durationMs;
  const loop = async () => {
    while (performance.now() < end) {
      await request(demo);
      n++;
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  return n / ((performance.now() - start) / 1000);
}

/**
 * An open loop: a sign-in started every `1000 / rate` ms for `durationMs`, whether or not earlier
 * ones answered (a closed loop at saturation would measure throughput, not the request path's
 * latency); the latencies in ms.
 */
async function load(
  demo: Demo,
  rate: number,
  durationMs: number,
  request: Request = signIn,
): Promise<number[]> {
  const latencies: Promise<number>[] = [];
  const start = performance.now();
  for (let i = 0; performance.now() - start < durationMs; i++) {
    latencies.push(request(demo));
    const next = start + ((i + 1) * 1000) / rate;
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
  return Promise.all(latencies);
}

/** One run's rows (off, on) and the ordinary path's. */
export interface ShadowPathRun {
  signIn: ShadowPathRow[];
  orders: ShadowPathRow[];
}

/**
 * The request path with shadow runs off and on (100% sampling, the cap raised, the built-in analyst):
 * `POST /api/login` on two demo servers in this process, every sign-in decided, interleaved rounds
 * of an open loop at half the capacity the server without shadow runs measured (closed loops of 8);
 * beside it the ordinary path (bearer `GET /api/orders`, an open loop at half its capacity). One row
 * per server per run, `runs` runs, and the rates used. Each row carries the serving thread's busy
 * time per request (event-loop utilisation), which load on the machine moves less than latency.
 */
export async function measureShadowPath(
  runs: number,
  rounds: number,
  durationMs: number,
): Promise<{ rate: number; ordersRate: number; runs: ShadowPathRun[] }> {
  const demos = [await startDemo("shadow off"), await startDemo("shadow on")];
  try {
    for (const d of demos) await capacity(d, 8, 500); // warm-up
    for (const d of demos) await capacity(d, 8, 500, orders);
    const rate = Math.max(5, Math.round((await capacity(demos[0]!, 8, 2_000)) / 2));
    const ordersRate = Math.max(5, Math.round((await capacity(demos[0]!, 8, 2_000, orders)) / 2));
    const out: ShadowPathRun[] = [];
    for (let run = 0; run < runs; run++) {
      out.push({
        signIn: await roundsOf(demos, rounds, durationMs, rate, signIn),
        orders: await roundsOf(demos, Math.max(2, Math.floor(rounds / 2)), durationMs, ordersRate, orders),
      });
    }
    return { rate, ordersRate, runs: out };
  } finally {
    for (const d of demos) await d.close();
  }
}

/** Interleaved rounds of an open loop of `request` at `rate` on each demo; a row per demo. */
async function roundsOf(
  demos: Demo[],
  rounds: number,
  durationMs: number,
  rate: number,
  request: Request,
): Promise<ShadowPathRow[]> {
  const all = new Map<Demo, { latencies: number[]; ms: number; loopMs: number }>(
    demos.map((d) => [d, { latencies: [], ms: 0, loopMs: 0 }]),
  );
  const before = new Map(demos.map((d) => [d, countsOf(d)]));
  for (let r = 0; r < rounds; r++) {
    for (const d of r % 2 === 0 ? demos : [...demos].reverse()) {
      const acc = all.get(d)!;
      const t = performance.now();
      const elu = performance.eventLoopUtilization();
      acc.latencies.push(...(await load(d, rate, durationMs, request)));
      // Shadow runs queued by the round's last requests finish inside its window.
      await new Promise((res) => setTimeout(res, 100));
      acc.loopMs += performance.eventLoopUtilization(elu).active;
      acc.ms += performance.now() - t - 100;
    }
  }
  return demos.map((d) => rowOf(d, all.get(d)!, before.get(d)!));
}

function countsOf(d: Demo) {
  const e = d.executor();
  return {
    decided: d.decided(),
    shadow: d.shadowRuns(),
    worker: e?.workerRuns ?? 0,
    inThread: e?.inThreadRuns ?? 0,
  };
}

function rowOf(
  demo: Demo,
  m: { latencies: number[]; ms: number; loopMs: number },
  before: ReturnType<typeof countsOf>,
): ShadowPathRow {
  const sorted = m.latencies.sort((a, b) => a - b);
  const q = (p: number) => Math.round(sorted[Math.floor(p * (sorted.length - 1))]! * 1000) / 1000;
  const now = countsOf(demo);
  return {
    shadow: demo.label,
    requests: sorted.length,
    p50Ms: q(0.5),
    p99Ms: q(0.99),
    rps: Math.round(sorted.length / (m.ms / 1000)),
    decided: now.decided - before.decided,
    shadowRuns: now.shadow - before.shadow,
    loopMsPerRequest: Math.round((m.loopMs / sorted.length) * 1000) / 1000,
    ...(demo.executor() === undefined
      ? {}
      : { workerRuns: now.worker - before.worker, inThreadRuns: now.inThread - before.inThread }),
  };
}
