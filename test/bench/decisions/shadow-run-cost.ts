import { existsSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { buildDemoPlatform } from "@keyward/cli";
import { selectionFromCatalog } from "../../../packages/core/src/decisions/engine/bundle-selection.js";
import { FallbackDecisionMaker } from "../../../packages/core/src/decisions/pipeline/decision-maker.js";
import { ShadowDecisions } from "../../../packages/core/src/decisions/pipeline/shadow-decisions.js";
import type { ShadowRunner } from "../../../packages/core/src/governance/shadow/shadow-runner.js";
import { BundleCatalog } from "../../../packages/core/src/prompts/bundle-catalog-token.js";
import { inputs } from "./decisions-measure.js";
import { v20InShadow, workerServing } from "./shadow-path.js";

/** The serving thread's share of one shadow run, per executor. */
export interface ShadowRunCostRow {
  executor: "IN_THREAD" | "WORKER";
  runs: number;
  /** Event-loop busy time per run, ms: what a run takes from the serving thread (wall time, so load inflates it). */
  servingMsPerRun: number;
  /** The serving thread's own CPU time per run, ms (Linux: /proc/self/task/<pid>/stat; 10 ms ticks); null elsewhere. */
  servingCpuMsPerRun: number | null;
  /** Process CPU (every thread) per run, ms. */
  processCpuMsPerRun: number;
  workerRuns: number;
}

/**
 * What one shadow run costs the serving thread, without HTTP or a load generator: the demo's shadow
 * runner (v20 in SHADOW) is handed `runs` copies of the demo sign-in decided by v19, then drained;
 * the event loop's busy time over that stretch, per run. Load on the machine inflates it less than a
 * latency percentile, and it does not count the worker's thread.
 */
export async function measureShadowRunCost(runs: number): Promise<ShadowRunCostRow[]> {
  const rows: ShadowRunCostRow[] = [];
  for (const executor of ["IN_THREAD", "WORKER"] as const) rows.push(await costOf(executor, runs));
  return rows;
}

export async function costOf(executor: "IN_THREAD" | "WORKER", runs: number): Promise<ShadowRunCostRow> {
  const { platform } = await buildDemoPlatform(
    {
      properties: {
        "platform.auth.ott.outbox-file": `/tmp/bench-shadow-cost-${process.pid}.jsonl`,
        "platform.security.tiered.prompt-bundle.shadow.sample-percent": 100,
        "platform.security.tiered.prompt-bundle.shadow.daily-call-cap": 10_000_000,
        "platform.security.tiered.prompt-bundle.shadow.executor": executor,
      },
    },
    {},
  );
  try {
    await v20InShadow(platform);
    const runner = platform.resolve(ShadowDecisions) as ShadowRunner;
    if (executor === "WORKER") await workerServing(runner);
    const catalog = platform.resolve(BundleCatalog);
    const input = inputs().get("demo-sign-in")!;
    const selection = selectionFromCatalog(catalog, "2026.07.30-v19", "BUILD_DEFAULT");
    const fallback = platform.resolve(FallbackDecisionMaker);
    const request = (i: number) => ({
      input,
      selection,
      event: {
        id: `evt-cost-${executor}-${i}`,
        kind: "SIGN_IN_COMPLETED" as const,
        at: Date.now(),
        userId: "u",
      },
    });
    const enforced = await fallback.decide(request(-1), new AbortController().signal);
    const hand = async (from: number, n: number) => {
      for (let i = from; i < from + n; i++) {
        runner.copy(request(i))?.after(enforced);
        // The runner's queue holds 64: hand runs over at the pace it drains.
        if ((i - from) % 32 === 31) await runner.idle();
      }
      await runner.idle();
    };
    await hand(0, 64); // warm-up
    const before = runner.stats();
    const cpu = process.cpuUsage();
    const thread = mainThreadCpuMs();
    const elu = performance.eventLoopUtilization();
    await hand(64, runs);
    const busy = performance.eventLoopUtilization(elu).active;
    const threadAfter = mainThreadCpuMs();
    const used = process.cpuUsage(cpu);
    const after = runner.stats();
    const ran = after.ran - before.ran;
    if (ran !== runs) throw new Error(`${executor}: ${ran} of ${runs} shadow runs ran`);
    return {
      executor,
      runs,
      servingMsPerRun: round(busy / runs),
      servingCpuMsPerRun:
        thread === null || threadAfter === null ? null : round((threadAfter - thread) / runs),
      processCpuMsPerRun: round((used.user + used.system) / 1000 / runs),
      workerRuns: after.workerRuns - before.workerRuns,
    };
  } finally {
    await platform.stop();
  }
}

/** The main thread's user + system CPU time in ms (its task's stat; clock ticks of 10 ms), or null. */
function mainThreadCpuMs(): number | null {
  const stat = `/proc/self/task/${process.pid}/stat`;
  if (!existsSync(stat)) return null;
  // Fields after the command's closing parenthesis: state is the 3rd field, utime the 14th, stime the 15th.
  const text = readFileSync(stat, "utf8");
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
