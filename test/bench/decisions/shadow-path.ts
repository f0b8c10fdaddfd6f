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
  close(): Promise<void>;
  decided(): number;
  shadowRuns(): number;
}

/** p50/p99 and requests per second of one server over one run's rounds. */
export interface ShadowPathRow {
  shadow: Demo["label"];
  requests: number;
  p50Ms: number;
  p99Ms: number;
  rps: number;
  decided: number;
  shadowRuns: number;
}

const V20 = "2026.09.15-v20";
const CHANGE_RECORD = "prompt-bundles/evidence-examples/2026.09.15-v20/change-record.json";

/** Puts v20 in SHADOW through the governance services, on the CHANGE_RECORD example. */
async function v20InShadow(
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
            }
          : {}),
      },
    },
    {},
  );
  if (on) await v20InShadow(demo.platform);
  const server = await serveHttp(demo.app, { port: 0, hostname: "127.0.0.1" });
  demo.platform.resolve(ServerAddress).port = server.port;
  return {
    label,
    base: `http://127.0.0.1:${server.port}`,
    decided: () => demo.platform.resolve(DecisionPipeline).stats().decided,
    shadowRuns: () =>
      on ? ((demo.platform.resolve(ShadowDecisions) as ShadowRunner).stats().admitted ?? 0) : 0,
    async close() {
      await server.close(true);
      await demo.platform.stop();
    },
  };
}

/** `connections` closed loops of `POST /api/login` as `user` for `durationMs`; the latencies in ms. */
async function load(demo: Demo, connections: number, durationMs: number): Promise<number[]> {
  const latencies: number[] = [];
  const end = performance.now() + durationMs;
  const loop = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      const res = await fetch(`${demo.base}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "user", password: "password" }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${demo.label}: /api/login answered ${res.status}`);
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  return latencies;
}

/**
 * The request path with shadow runs off and on (100% sampling, the cap raised, the built-in analyst):
 * `POST /api/login` on two demo servers in this process, every sign-in decided, interleaved rounds;
 * one row per server per run, `runs` runs.
 */
export async function measureShadowPath(
  runs: number,
  rounds: number,
  durationMs: number,
  connections: number,
): Promise<ShadowPathRow[][]> {
  const demos = [await startDemo("shadow off"), await startDemo("shadow on")];
  try {
    for (const d of demos) await load(d, connections, 500); // warm-up
    const out: ShadowPathRow[][] = [];
    for (let run = 0; run < runs; run++) {
      const all = new Map<string, number[]>(demos.map((d) => [d.label, []]));
      const time = new Map<string, number>(demos.map((d) => [d.label, 0]));
      const before = new Map(demos.map((d) => [d.label, { decided: d.decided(), shadow: d.shadowRuns() }]));
      for (let r = 0; r < rounds; r++) {
        for (const d of r % 2 === 0 ? demos : [...demos].reverse()) {
          const t = performance.now();
          all.get(d.label)!.push(...(await load(d, connections, durationMs)));
          time.set(d.label, time.get(d.label)! + performance.now() - t);
        }
      }
      out.push(demos.map((d) => rowOf(d, all.get(d.label)!, time.get(d.label)!, before.get(d.label)!)));
    }
    return out;
  } finally {
    for (const d of demos) await d.close();
  }
}

function rowOf(
  demo: Demo,
  latencies: number[],
  ms: number,
  before: { decided: number; shadow: number },
): ShadowPathRow {
  const sorted = latencies.sort((a, b) => a - b);
  const q = (p: number) => Math.round(sorted[Math.floor(p * (sorted.length - 1))]! * 1000) / 1000;
  return {
    shadow: demo.label,
    requests: sorted.length,
    p50Ms: q(0.5),
    p99Ms: q(0.99),
    rps: Math.round(sorted.length / (ms / 1000)),
    decided: demo.decided() - before.decided,
    shadowRuns: demo.shadowRuns() - before.shadow,
  };
}
