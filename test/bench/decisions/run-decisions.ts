import "reflect-metadata";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { machineInfo } from "../login/machine.js";
import { measureEngine, measureRenders } from "./decisions-measure.js";
import { measureRequestPath } from "./request-path.js";
import { measureSelection, type SelectionRow } from "./selection-measure.js";
import { measureShadowPath, SHADOW_EXECUTOR_UNDER_TEST, type ShadowPathRow } from "./shadow-path.js";
import { measureShadowRunCost, type ShadowRunCostRow } from "./shadow-run-cost.js";

const USAGE = `pnpm bench:decisions [--quick] [--no-write] [--shadow-only]

Measures the AI security decisions: render time per prompt per layout (v19, v20; L1, L2; the golden
inputs and the demo's sign-in from the machine itself), decisions per second through the built-in offline analyst (whole decisions: render,
analyst, inspector, floors, L2 when asked), and the request path of zero trust with decisions on
versus off: bearer GET /api/orders on two demo servers in this process, interleaved rounds;
decisions per second with the build default, the registry selector and a 10% canary; and the
request path with shadow runs on versus off (POST /api/login, every sign-in decided, shadow at 100%
sampling with the daily cap raised, the built-in analyst), the median of three runs, with the
ordinary path (bearer GET /api/orders) beside it. BENCH_SHADOW_EXECUTOR=IN_THREAD runs the shadow
runs on the serving thread instead of the worker (the comparison before the worker).
--quick        fewer iterations and shorter rounds
--no-write     do not update test/bench/decisions/RESULTS.md
--shadow-only  only the shadow request path (printed, not written)
`;

const RESULTS = fileURLToPath(new URL("./RESULTS.md", import.meta.url));
const BEGIN = "<!-- bench:decisions latest -->";
const END = "<!-- /bench:decisions latest -->";

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((a) => a !== "--");
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(USAGE);
    return 0;
  }
  const unknown = args.filter((a) => !["--quick", "--no-write", "--shadow-only"].includes(a));
  if (unknown.length > 0) {
    process.stderr.write(`unknown option ${unknown[0]}\n\n${USAGE}`);
    return 2;
  }
  const quick = args.includes("--quick");
  if (args.includes("--shadow-only")) {
    const m = machineInfo();
    process.stdout.write(`load ${m.loadAverage}\n`);
    process.stdout.write(`${renderCost(await measureShadowRunCost(quick ? 300 : 1000))}\n\n`);
    process.stdout.write(`${renderShadow(await measureShadowPath(3, quick ? 2 : 4, quick ? 1500 : 4000))}\n`);
    return 0;
  }
  const renders = measureRenders(quick ? 200 : 2000);
  const engine = await measureEngine(quick ? 200 : 1000);
  const path = await measureRequestPath(quick ? 2 : 6, quick ? 1000 : 3000, 8);
  const selection = await measureSelection(quick ? 300 : 1500, 3);
  const cost = await measureShadowRunCost(quick ? 300 : 1000);
  const shadow = await measureShadowPath(3, quick ? 2 : 4, quick ? 1500 : 4000);
  const report = [
    render(renders, engine, path, quick),
    renderSelection(selection),
    renderCost(cost),
    renderShadow(shadow),
  ].join("\n\n");
  process.stdout.write(`${report}\n`);
  if (!args.includes("--no-write")) write(report);
  const [off, on] = path;
  return off && on && off.requests > 0 && on.requests > 0 ? 0 : 1;
}

function render(
  renders: ReturnType<typeof measureRenders>,
  engine: Awaited<ReturnType<typeof measureEngine>>,
  path: Awaited<ReturnType<typeof measureRequestPath>>,
  quick: boolean,
): string {
  const m = machineInfo();
  const off = path.find((r) => r.decisions === "off")!;
  const on = path.find((r) => r.decisions === "on")!;
  const ratio = Math.round((on.p50Ms / off.p50Ms - 1) * 1000) / 10;
  return [
    `Run ${new Date().toISOString()}${quick ? " (--quick)" : ""}; Node ${m.node}, ${m.cpuCount} CPUs (${m.cpuModel}), load ${m.loadAverage}.`,
    "",
    "### Render time per prompt (system + user), per layout",
    "",
    "| bundle | layout | profile | input | median µs | p99 µs | user prompt chars |",
    "|---|---|---|---|---|---|---|",
    ...renders.map(
      (r) =>
        `| ${r.version} | ${r.layout} | ${r.profile} | ${r.input} | ${r.medianUs.toFixed(1)} | ${r.p99Us.toFixed(1)} | ${r.userChars} |`,
    ),
    "",
    "### Decisions per second through the built-in analyst (one at a time)",
    "",
    "| bundle | input | decisions/s | model calls per decision | action |",
    "|---|---|---|---|---|",
    ...engine.map(
      (r) =>
        `| ${r.version} | ${r.input} | ${r.decisionsPerSecond} | ${r.modelCallsPerDecision} | ${r.action} |`,
    ),
    "",
    "### Request path: bearer GET /api/orders, zero trust sampling 1, decisions off vs on",
    "",
    "| decisions | requests | p50 ms | p99 ms | req/s | decisions made |",
    "|---|---|---|---|---|---|",
    ...path.map(
      (r) => `| ${r.decisions} | ${r.requests} | ${r.p50Ms} | ${r.p99Ms} | ${r.rps} | ${r.decided} |`,
    ),
    "",
    `p50 with decisions on is ${ratio >= 0 ? "+" : ""}${ratio}% of off (goal: within 5%).`,
  ].join("\n");
}

function renderSelection(rows: SelectionRow[]): string {
  const base = rows[0]!.decisionsPerSecond;
  return [
    "### Decisions per second by selector (select + the built-in analyst on the demo's sign-in; median of three runs)",
    "",
    "| selector | decisions/s | vs build default | select µs | versions run (%) |",
    "|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.selector} | ${r.decisionsPerSecond} | ${pct(r.decisionsPerSecond / base)} | ${r.selectUs} | ${Object.entries(
          r.versions,
        )
          .map(([v, p]) => `${v} ${p}`)
          .join(", ")} |`,
    ),
  ].join("\n");
}

function renderShadow({ rate, ordersRate, runs }: Awaited<ReturnType<typeof measureShadowPath>>): string {
  const medianRatio = (
    pick: (r: ShadowPathRow) => number,
    rows: (run: (typeof runs)[number]) => ShadowPathRow[],
  ) => {
    const ratios = runs.map((run) => pick(rows(run)[1]!) / pick(rows(run)[0]!));
    return [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
  };
  const loopExtra = runs.map((run) => {
    const [off, on] = run.signIn;
    return (on!.loopMsPerRequest - off!.loopMsPerRequest) / Math.max(1, on!.shadowRuns / on!.requests);
  });
  const medianExtra = [...loopExtra].sort((a, b) => a - b)[Math.floor(loopExtra.length / 2)]!;
  const table = (rows: (run: (typeof runs)[number]) => ShadowPathRow[]) => [
    "| run | shadow | requests | p50 ms | p99 ms | req/s | decisions | shadow runs (worker / in-thread) | serving-thread ms per request |",
    "|---|---|---|---|---|---|---|---|---|",
    ...runs.flatMap((run, i) =>
      rows(run).map(
        (r) =>
          `| ${i + 1} | ${r.shadow} | ${r.requests} | ${r.p50Ms} | ${r.p99Ms} | ${r.rps} | ${r.decided} | ${r.shadowRuns}${r.workerRuns === undefined ? "" : ` (${r.workerRuns} / ${r.inThreadRuns})`} | ${r.loopMsPerRequest} |`,
      ),
    ),
  ];
  return [
    `### Request path: POST /api/login, every sign-in decided, shadow runs off vs on (100% sampling, executor ${SHADOW_EXECUTOR_UNDER_TEST})`,
    "",
    `An open loop of ${rate} sign-ins a second (half the capacity measured without shadow runs), interleaved rounds.`,
    "",
    ...table((run) => run.signIn),
    "",
    `p50 with shadow on, median of the three runs' ratios: ${pct(
      medianRatio(
        (r) => r.p50Ms,
        (run) => run.signIn,
      ),
    )} of off (goal: within 5%).`,
    `Serving-thread time per shadow run (busy ms per request, on minus off, per run): ${Math.round(medianExtra * 1000) / 1000} ms (median of the runs).`,
    "",
    `The ordinary path beside it: bearer GET /api/orders, an open loop of ${ordersRate} a second (half its capacity without shadow runs).`,
    "",
    ...table((run) => run.orders),
    "",
    `p50 with shadow on, median of the three runs' ratios: ${pct(
      medianRatio(
        (r) => r.p50Ms,
        (run) => run.orders,
      ),
    )} of off.`,
  ].join("\n");
}

function renderCost(rows: ShadowRunCostRow[]): string {
  return [
    "### One shadow run's cost to the serving thread, by executor (the demo sign-in, v20 in SHADOW, no HTTP)",
    "",
    "| executor | runs | serving-thread busy ms per run | serving-thread CPU ms per run | process CPU ms per run (every thread) | on the worker |",
    "|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.executor} | ${r.runs} | ${r.servingMsPerRun} | ${r.servingCpuMsPerRun ?? "n/a"} | ${r.processCpuMsPerRun} | ${r.workerRuns} |`,
    ),
  ].join("\n");
}

function pct(ratio: number): string {
  const d = Math.round((ratio - 1) * 1000) / 10;
  return `${d >= 0 ? "+" : ""}${d}%`;
}

function write(report: string): void {
  const intro = `# bench:decisions

\`pnpm bench:decisions\` (test/bench/decisions/run-decisions.ts). Both demo servers and the load
generator share this process and the machine's cores, so the request-path numbers are a comparison
of the two servers under the same conditions, not a capacity figure.

${BEGIN}
${END}
`;
  const current = existsSync(RESULTS) ? readFileSync(RESULTS, "utf8") : intro;
  const base = current.includes(BEGIN) ? current : intro;
  const before = base.slice(0, base.indexOf(BEGIN) + BEGIN.length);
  const after = base.slice(base.indexOf(END));
  writeFileSync(RESULTS, `${before}\n${report}\n${after}`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench:decisions failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
