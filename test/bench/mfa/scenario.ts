import { DEMO_USERS } from "@keyward/cli";
import type { MfaSettings } from "../../../packages/core/src/mfa/mfa.properties.js";
import { describeError } from "../login/closed-loop.js";
import { startDemoServer } from "../login/demo-server.js";
import type { BenchOptions } from "../login/options.js";
import { describeScryptHash, type ScryptDescription } from "../login/scrypt-baseline.js";
import { percentile, type RunSummary, summarise } from "../login/stats.js";
import { MfaCodeCapture } from "./code-capture.js";
import { runMfaClient } from "./flow-client.js";
import { MFA_PHASES, type MfaLoadSpec, type MfaPhase, type MfaRawRun } from "./flow-load.js";
import { type MemoryResult, measurePendingSessionMemory } from "./memory.js";

/** Latency of one step of the flow over the successful flows of a run. */
export interface PhaseSummary {
  p50: number;
  p99: number;
  mean: number;
}

/** One row of MFA flows: the whole-flow summary plus the split by step. */
export interface MfaRunSummary extends RunSummary {
  phases: Record<MfaPhase, PhaseSummary>;
}

/** How the in-memory code capture fared on one server. */
export interface CaptureStats {
  delivered: number;
  /** Codes that reached the delivery outside a tagged request (correlation broken); must be 0. */
  untagged: number;
  /** Codes never picked up (left by failed flows). */
  unclaimed: number;
}

/** Everything the MFA scenarios measured. */
export interface MfaResults {
  /** The settings the servers ran with (all defaults). */
  settings: MfaSettings;
  /** `admin`'s stored hash (the primary step's cost). */
  scrypt: ScryptDescription;
  target: string;
  flowRuns: MfaRunSummary[];
  /** Flows from distinct client addresses, on a second server that trusts its loopback peer as a proxy. */
  flowSpreadRuns: MfaRunSummary[];
  capture: CaptureStats;
  memory: MemoryResult | { error: string };
}

export const MFA_SCENARIO = {
  flow: "M: MFA OTT flow of admin, one client address",
  flowSpread: "M′: MFA OTT flow of admin, one client address per connection (X-Forwarded-For)",
} as const;

/** The demo user the MFA policy challenges (ROLE_ADMIN). */
function adminCredentials(): { username: string; password: string } {
  const admin = DEMO_USERS.find((u) => u.username === "admin");
  if (!admin) throw new Error("the demo has no admin user");
  return { username: admin.username, password: admin.password };
}

/**
 * Complete MFA OTT flows at each login concurrency level on the real demo server (defaults, an
 * in-memory capturing OneTimeTokenDelivery registered through `{ register }`), the same at the
 * highest level with one client address per connection, then the heap per pending flow in a child
 * process. `progress` prints a line per run.
 */
export async function runMfaBench(opts: BenchOptions, progress: (line: string) => void): Promise<MfaResults> {
  const credentials = adminCredentials();
  const capture = new MfaCodeCapture();
  const spreadCapture = new MfaCodeCapture();
  const spec = (baseUrl: string, concurrency: number): MfaLoadSpec => ({
    baseUrl,
    credentials,
    concurrency,
    count: opts.mfaCount,
    warmup: concurrency,
    timeoutMs: opts.requestTimeoutMs,
  });
  const report = (scenario: string, concurrency: number, run: MfaRawRun): MfaRunSummary => {
    const summary = summariseFlows(scenario, concurrency, run);
    const split = MFA_PHASES.map((p) => `${p} ${summary.phases[p].p50.toFixed(1)}`).join(", ");
    progress(
      `${scenario}, concurrency ${concurrency}: ${summary.ok} ok, ${summary.errorCount} errors, ` +
        `${summary.rate.toFixed(1)} flows/s, p50 ${summary.p50.toFixed(1)} ms, p99 ${summary.p99.toFixed(1)} ms ` +
        `(p50 by step: ${split})`,
    );
    for (const [message, count] of Object.entries(summary.errors)) progress(`  ${count} × ${message}`);
    return summary;
  };

  const server = await startDemoServer({ register: capture.register(), hashOf: credentials.username });
  const flowRuns: MfaRunSummary[] = [];
  let settings: MfaSettings | undefined;
  try {
    settings = capture.settings;
    for (const concurrency of opts.loginConcurrency) {
      const run = await runMfaClient(spec(server.baseUrl, concurrency), opts.client, capture);
      flowRuns.push(report(MFA_SCENARIO.flow, concurrency, run));
    }
  } finally {
    await server.close();
  }
  if (!settings) throw new Error("the code capture was never registered");

  const flowSpreadRuns: MfaRunSummary[] = [];
  const spreadConcurrency = Math.max(...opts.loginConcurrency);
  if (spreadConcurrency > 1) {
    const spreadServer = await startDemoServer({ trustProxy: true, register: spreadCapture.register() });
    try {
      const run = await runMfaClient(
        { ...spec(spreadServer.baseUrl, spreadConcurrency), distinctAddresses: true },
        opts.client,
        spreadCapture,
      );
      flowSpreadRuns.push(report(MFA_SCENARIO.flowSpread, spreadConcurrency, run));
    } finally {
      await spreadServer.close();
    }
  }

  let memory: MfaResults["memory"];
  try {
    memory = await measurePendingSessionMemory(opts.mfaSessions, opts.quick ? 60_000 : 300_000);
    progress(
      `memory per pending MFA session: ${Math.round(memory.bytesPerSession)} bytes of heap ` +
        `(${memory.sessions} pending flows, heap ${mb(memory.heapUsedBefore)} → ${mb(memory.heapUsedAfter)} MB)`,
    );
  } catch (error) {
    memory = { error: describeError(error) };
    progress(`memory per pending MFA session failed: ${memory.error}`);
  }

  return {
    settings,
    scrypt: describeScryptHash(server.storedHash),
    target: server.baseUrl,
    flowRuns,
    flowSpreadRuns,
    capture: {
      delivered: capture.delivered + spreadCapture.delivered,
      untagged: capture.untagged + spreadCapture.untagged,
      unclaimed: capture.unclaimed + spreadCapture.unclaimed,
    },
    memory,
  };
}

/** True when any MFA measurement failed (an errored flow, no flow at all, or the memory child). */
export function mfaFailed(r: MfaResults): boolean {
  const runs = [...r.flowRuns, ...r.flowSpreadRuns];
  return (
    runs.some((run) => run.errorCount > 0 || run.ok === 0) || "error" in r.memory || r.capture.untagged > 0
  );
}

function summariseFlows(scenario: string, concurrency: number, run: MfaRawRun): MfaRunSummary {
  const phases = {} as Record<MfaPhase, PhaseSummary>;
  for (const phase of MFA_PHASES) {
    const values = run.phases[phase];
    const sorted = Float64Array.from(values).sort();
    phases[phase] = {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      mean: values.length > 0 ? values.reduce((sum, v) => sum + v, 0) / values.length : Number.NaN,
    };
  }
  return { ...summarise(scenario, concurrency, run), phases };
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}
