import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { machineInfo } from "../login/machine.js";
import { summariseCpuProfile } from "./cpu-profile-summary.js";
import { signInDemoUser } from "./demo-credentials.js";
import { renderTable, type ScenarioRuns, tabulate } from "./http-report.js";
import { runKeepAliveLoad } from "./keep-alive-load.js";
import { SCENARIO_IDS, SCENARIOS, type ScenarioId } from "./scenarios.js";
import { startServerProcess } from "./server-process.js";

const USAGE = `pnpm bench:http [--quick] [--rounds N] [--duration MS] [--profile SCENARIO] [--no-write]

Measures a bare h3 route and the demo's /health, session /api/me, bearer /api/me and bearer
/api/orders with 16 keep-alive connections, in interleaved rounds, each server in its own process.
--quick          2 rounds of 1 s (default 5 rounds of 3 s)
--profile ID     instead: run only ID (${SCENARIO_IDS.join(", ")}) with V8's CPU profiler on in
                 the server during the measured time; write the .cpuprofile under .platform/bench/
                 and print the functions with the most self and total time
--routes A,B     measure only these routes (and the bare one)
--no-write       do not update test/bench/http/RESULTS.md
`;

const CONNECTIONS = 16;
const RESULTS = fileURLToPath(new URL("./RESULTS.md", import.meta.url));
const BEGIN = "<!-- bench:http latest -->";
const END = "<!-- /bench:http latest -->";

interface Options {
  rounds: number;
  durationMs: number;
  profile?: ScenarioId;
  /** The routes measured (the bare route always is, as the ratios' base). */
  routes: ScenarioId[];
  write: boolean;
}

function parseOptions(argv: string[]): Options | "help" {
  const args = argv.filter((a) => a !== "--");
  const opts: Options = { rounds: 5, durationMs: 3000, routes: [...SCENARIO_IDS], write: true };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = (): string => {
      const v = args[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--help" || a === "-h") return "help";
    else if (a === "--quick") Object.assign(opts, { rounds: 2, durationMs: 1000 });
    else if (a === "--rounds") opts.rounds = positive(a, value());
    else if (a === "--duration") opts.durationMs = positive(a, value());
    else if (a === "--no-write") opts.write = false;
    else if (a === "--routes") {
      const ids = value().split(",");
      for (const id of ids) scenarioId(id);
      opts.routes = SCENARIO_IDS.filter((id) => id === "bare" || ids.includes(id));
    } else if (a === "--profile") {
      opts.profile = scenarioId(value());
    } else throw new Error(`unknown option ${a}`);
  }
  return opts;
}

function scenarioId(id: string): ScenarioId {
  if (!(SCENARIO_IDS as readonly string[]).includes(id)) throw new Error(`unknown route ${id}`);
  return id as ScenarioId;
}

function positive(name: string | undefined, v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} takes a positive integer, not ${v}`);
  return n;
}

async function main(): Promise<number> {
  let opts: Options | "help";
  try {
    opts = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (opts === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  return opts.profile ? profile(opts.profile, opts.durationMs) : measure(opts);
}

async function measure(opts: Options): Promise<number> {
  const date = new Date();
  const machine = machineInfo();
  const bare = await startServerProcess("bare");
  const demo = await startServerProcess("demo");
  const all: ScenarioRuns[] = opts.routes.map((id) => ({ id, runs: [] }));
  let failed = false;
  try {
    const ports = { bare: bare.port, demo: demo.port };
    const creds = await signInDemoUser(`http://127.0.0.1:${demo.port}`);
    // One unmeasured pass over every route first, so that no route's first round pays for compilation.
    for (const id of opts.routes) {
      await runKeepAliveLoad(SCENARIOS[id].target(ports, creds), {
        connections: CONNECTIONS,
        warmupMs: 0,
        durationMs: Math.min(1000, opts.durationMs),
      });
    }
    for (let round = 1; round <= opts.rounds; round++) {
      for (const entry of all) {
        const scenario = SCENARIOS[entry.id];
        const run = await runKeepAliveLoad(scenario.target(ports, creds), {
          connections: CONNECTIONS,
          warmupMs: Math.min(1000, opts.durationMs / 2),
          durationMs: opts.durationMs,
          serverCpu: (entry.id === "bare" ? bare : demo).cpuMicros,
        });
        entry.runs.push(run);
        const rate = (run.ok * 1000) / run.elapsedMs;
        const cpu = run.serverCpuMicros / run.ok;
        progress(
          `round ${round} ${entry.id}: ${Math.round(rate)}/s, ${cpu.toFixed(1)} µs CPU/answer, ${run.errors} errors`,
        );
        if (run.firstError) progress(`  ${run.firstError}`);
        if (run.errors > 0 || !scenario.answered(run.sampleBody)) {
          failed = true;
          progress(`  unexpected answer: ${run.sampleBody.slice(0, 160)}`);
        }
      }
    }
  } finally {
    await Promise.all([bare.stop(), demo.stop()]);
  }
  const table = renderTable(tabulate(all), {
    machine,
    date,
    connections: CONNECTIONS,
    reps: opts.rounds,
    durationMs: opts.durationMs,
  });
  process.stdout.write(`\n${table}\n`);
  if (opts.write) {
    writeLatest(table);
    process.stdout.write(`\nWritten to ${RESULTS}\n`);
  }
  return failed ? 1 : 0;
}

/** Replaces the generated section of RESULTS.md, keeping what is written around it. */
function writeLatest(table: string): void {
  let text: string;
  try {
    text = readFileSync(RESULTS, "utf8");
  } catch {
    text = `# pnpm bench:http\n\n## Latest run\n\n${BEGIN}\n${END}\n`;
  }
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  const section = `${BEGIN}\n${table}\n${END}`;
  text =
    start === -1 || end === -1
      ? `${text}\n${section}\n`
      : text.slice(0, start) + section + text.slice(end + END.length);
  writeFileSync(RESULTS, text);
}

async function profile(id: ScenarioId, durationMs: number): Promise<number> {
  const dir = fileURLToPath(new URL(`../../../.platform/bench/profiles/${Date.now()}/`, import.meta.url));
  mkdirSync(dir, { recursive: true });
  const server = await startServerProcess(id === "bare" ? "bare" : "demo");
  const file = `${dir}${id}.cpuprofile`;
  try {
    const creds = await signInDemoUser(`http://127.0.0.1:${server.port}`).catch(() => ({
      sessionCookie: "",
      authorization: "",
    }));
    const ports = { bare: server.port, demo: server.port };
    const target = SCENARIOS[id].target(ports, creds);
    await runKeepAliveLoad(target, { connections: CONNECTIONS, warmupMs: 0, durationMs: 1000 });
    const stopProfile = await server.startProfile();
    const run = await runKeepAliveLoad(target, { connections: CONNECTIONS, warmupMs: 0, durationMs });
    await stopProfile(file);
    progress(`${id}: ${Math.round((run.ok * 1000) / run.elapsedMs)}/s while profiled, ${run.errors} errors`);
  } finally {
    await server.stop();
  }
  const { bySelf, byTotal } = summariseCpuProfile(file);
  const rows = (xs: typeof bySelf): string =>
    xs
      .map((f) => `| ${f.selfPercent.toFixed(1)} | ${f.totalPercent.toFixed(1)} | \`${f.frame}\` |`)
      .join("\n");
  process.stdout.write(
    `\nProfile of ${id} (${file}), percent of non-idle samples:\n\n` +
      `By self time:\n\n| self % | total % | function |\n|---:|---:|---|\n${rows(bySelf)}\n\n` +
      `By total time:\n\n| self % | total % | function |\n|---:|---:|---|\n${rows(byTotal)}\n`,
  );
  return 0;
}

function progress(line: string): void {
  process.stderr.write(`bench:http: ${line}\n`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `bench:http: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
