import type { MachineInfo } from "./machine.js";
import type { BenchOptions } from "./options.js";
import type { ScryptDescription } from "./scrypt-baseline.js";
import type { RunSummary } from "./stats.js";

/** Everything one benchmark run measured, grouped for the report. */
export interface BenchResults {
  startedAt: Date;
  options: BenchOptions;
  machine: MachineInfo;
  scrypt: ScryptDescription;
  /** Base URL of the main demo server (the one the single-address scenarios hit). */
  target: string;
  scryptRuns: RunSummary[];
  loginRuns: RunSummary[];
  /** Logins from distinct client addresses, on a second server that trusts its loopback peer as a proxy. */
  loginSpreadRuns: RunSummary[];
  meRuns: RunSummary[];
  totalMs: number;
}

export const SCENARIO = {
  scrypt: "scrypt verify, in-process (bare hash rate)",
  login: "A: POST /api/login (scrypt + JWT issue), one client address",
  loginSpread: "A′: POST /api/login, one client address per connection (X-Forwarded-For)",
  me: "B: GET /api/me with bearer JWT",
} as const;

/** The report as markdown: machine, parameters, one table, derived notes, errors. */
export function renderReport(r: BenchResults): string {
  const m = r.machine;
  const s = r.scrypt;
  const o = r.options;
  const lines: string[] = [];
  lines.push(`## Login benchmark — ${o.quick ? "quick smoke run (not representative)" : "full run"}`);
  lines.push("");
  lines.push(`Run ${r.startedAt.toISOString()}, took ${(r.totalMs / 1000).toFixed(1)} s.`);
  lines.push("");
  lines.push(...machineRows(m));
  lines.push(`| scrypt (from the demo user's stored hash) | ${scryptCell(s)} |`);
  lines.push(
    `| Server | demo platform (\`buildDemoPlatform({}, {})\`, all defaults) + \`serveHttp\` on ${r.target} |`,
  );
  lines.push(
    `| Client | in-house closed loop, Node fetch (undici) with keep-alive, ${
      o.client === "worker" ? "in a worker thread" : "on the server's event loop (inline)"
    }; \`performance.now()\` |`,
  );
  lines.push(
    `| Counts | ${o.loginCount} logins and ${o.scryptCount} verifies per level; /api/me ${
      o.meCount === undefined ? `for ${o.durationMs} ms` : `${o.meCount} requests`
    } per level; warm-up excluded |`,
  );
  lines.push(`| Commit | ${m.git} |`);
  lines.push("");
  lines.push(
    "| Scenario | Concurrency | OK | Errors | Time (s) | Ops/s | p50 (ms) | p99 (ms) | Mean (ms) | Max (ms) | CPU own / other (cores) |",
  );
  lines.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const run of [...r.scryptRuns, ...r.loginRuns, ...r.loginSpreadRuns, ...r.meRuns]) {
    lines.push(
      `| ${run.scenario} | ${run.concurrency} | ${run.ok} | ${run.errorCount} | ${(run.elapsedMs / 1000).toFixed(2)} | ` +
        `${rate(run.rate)} | ${ms(run.p50)} | ${ms(run.p99)} | ${ms(run.mean)} | ${ms(run.max)} | ${cpu(run)} |`,
    );
  }
  lines.push("");
  const notes = derivedNotes(r);
  if (notes.length > 0) {
    lines.push("Notes:");
    lines.push("");
    for (const note of notes) lines.push(`- ${note}`);
    lines.push("");
  }
  const failed = [...r.scryptRuns, ...r.loginRuns, ...r.loginSpreadRuns, ...r.meRuns].filter(
    (run) => run.errorCount > 0,
  );
  if (failed.length > 0) {
    lines.push("Errors:");
    lines.push("");
    for (const run of failed) {
      for (const [message, count] of Object.entries(run.errors)) {
        lines.push(`- ${run.scenario}, concurrency ${run.concurrency}: ${count} × \`${message}\``);
      }
    }
    lines.push("");
  }
  return lines.join("\n");
}

/** The head of a "Machine / setting" table: Node, OS, CPUs, memory and load, libuv pool. */
export function machineRows(m: MachineInfo): string[] {
  return [
    "| Machine / setting | Value |",
    "|---|---|",
    `| Node | ${m.node} |`,
    `| OS | ${m.platform} |`,
    `| CPUs | ${m.cpuCount} × ${m.cpuModel} (available parallelism ${m.availableParallelism}) |`,
    `| Memory | ${m.totalMemoryGiB} GiB; load average before the run ${m.loadAverage} |`,
    `| libuv thread pool | ${m.threadpool} |`,
  ];
}

/** The scrypt parameters as one table cell. */
export function scryptCell(s: ScryptDescription): string {
  return (
    `ln=${s.costLog2} (N=${s.n}), r=${s.blockSize}, p=${s.parallelization}, ${s.keyLength}-byte key, ` +
    `${s.saltLength}-byte salt, ${mib(s.memoryBytes)} MiB per hash (maxmem ${mib(s.maxmem)} MiB)`
  );
}

function derivedNotes(r: BenchResults): string[] {
  const notes: string[] = [];
  const scrypt1 = r.scryptRuns.find((run) => run.concurrency === 1);
  const login1 = r.loginRuns.find((run) => run.concurrency === 1);
  if (scrypt1 && login1 && scrypt1.ok > 0 && login1.ok > 0) {
    notes.push(
      `One login at a time costs ${ms(login1.mean)} ms against ${ms(scrypt1.mean)} ms for the bare verify: ` +
        `HTTP, JSON, the filter chain, throttle bookkeeping, signing the JWT access token and storing an opaque refresh token add ` +
        `~${ms(login1.mean - scrypt1.mean)} ms; login runs at ${pct(login1.rate / scrypt1.rate)} of the bare hash rate.`,
    );
  }
  const loginMax = maxBy(r.loginRuns.filter((run) => run.concurrency > 1));
  if (login1 && loginMax && login1.ok > 0 && loginMax.ok > 0) {
    notes.push(
      `Logins from one client address are serialised by the authenticator (AttemptSerializer: one attempt ` +
        `at a time per address, at most 32 running or waiting, further ones answer 429 TOO_MANY_ATTEMPTS at once), ` +
        `so one IP is capped at about 1 / hash time. Concurrency ${loginMax.concurrency} gives ${rate(loginMax.rate)}/s ` +
        `against ${rate(login1.rate)}/s at concurrency 1, and p50 grows from ${ms(login1.p50)} to ${ms(loginMax.p50)} ms ` +
        `(waiting in that queue). This is intended: a burst cannot outrun the failure throttle.`,
    );
  }
  const spread = maxBy(r.loginSpreadRuns);
  const scryptSame = spread && r.scryptRuns.find((run) => run.concurrency === spread.concurrency);
  if (spread && scryptSame && spread.ok > 0 && scryptSame.ok > 0) {
    notes.push(
      `With one address per connection (a second demo server trusting its loopback peer as a proxy, each ` +
        `connection sending its own X-Forwarded-For) ${spread.concurrency} logins run in parallel: ` +
        `${rate(spread.rate)}/s, ${pct(spread.rate / scryptSame.rate)} of the bare scrypt rate at concurrency ` +
        `${spread.concurrency} (${rate(scryptSame.rate)}/s). Parallel hashing is bounded by CPU cores ` +
        `(${r.machine.availableParallelism}) and the libuv thread pool (${r.machine.threadpool}).`,
    );
  }
  const me = maxBy(r.meRuns);
  if (me && me.ok > 0) {
    notes.push(
      `GET /api/me needs no hash: each request checks the bearer JWT's signature and claims and its jti against the revocation list ` +
        `(${rate(me.rate)}/s at concurrency ${me.concurrency}).`,
    );
  }
  notes.push(
    `The load generator and the server share this machine's ${r.machine.availableParallelism} cores: ${
      r.options.client === "worker"
        ? "the client runs in a worker thread, the server on the main event loop"
        : "the client runs on the server's own event loop"
    }, scrypt on the libuv pool. "CPU own" is this process (all threads) over the measured interval; ` +
      `"other" is every other process plus hypervisor steal (from /proc/stat): when it is well above 0 ` +
      `another job was competing, and the row understates the machine.`,
  );
  // Sub-second runs are left out: their few /proc/stat ticks (10 ms each) make the estimate noisy.
  const busiest = [...r.scryptRuns, ...r.loginRuns, ...r.loginSpreadRuns, ...r.meRuns]
    .filter((run) => run.elapsedMs >= 1_000)
    .reduce((max, run) => Math.max(max, run.cpu.otherCores ?? 0), 0);
  if (busiest >= 0.25) {
    notes.push(
      `Warning: other processes kept up to ${busiest.toFixed(2)} cores busy during a run; rerun on a quiet machine.`,
    );
  }
  if (r.options.loginCount < 100 || r.options.scryptCount < 100) {
    notes.push("With fewer than 100 samples per level, p99 is the slowest sample.");
  }
  return notes;
}

export function cpu(run: RunSummary): string {
  const other = run.cpu.otherCores === undefined ? "–" : run.cpu.otherCores.toFixed(2);
  return `${run.cpu.ownCores.toFixed(2)} / ${other}`;
}

export function maxBy<T extends RunSummary>(runs: T[]): T | undefined {
  return runs.reduce<T | undefined>(
    (best, run) => (!best || run.concurrency > best.concurrency ? run : best),
    undefined,
  );
}

export function rate(value: number): string {
  if (!Number.isFinite(value)) return "–";
  return value >= 100 ? Math.round(value).toString() : value.toFixed(1);
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return "–";
  return value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

export function pct(ratio: number): string {
  return Number.isFinite(ratio) ? `${Math.round(ratio * 100)} %` : "–";
}

function mib(bytes: number): string {
  const value = bytes / 2 ** 20;
  return Number.isInteger(value) ? value.toString() : value.toFixed(1);
}
