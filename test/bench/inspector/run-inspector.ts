import "reflect-metadata";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadBundleCatalog } from "../../../packages/core/src/prompts/manifest/bundle-catalog.js";
import { machineInfo } from "../login/machine.js";
import { benchPackages, measureInspector } from "./inspector-measure.js";

const USAGE = `pnpm bench:inspector [--quick] [--no-write]

Measures the prompt inspector: evidence packages inspected per second of one core's CPU time
(process.cpuUsage), all ten checks, over the corpus's clean and broken packages (v20 L1 and L1+L2,
v19, masked), sealed, the registry read from a cached row lookup and the host fact source answering
from the platform's in-memory stores; once over the clean packages (what production mostly
captures), once over the whole corpus. Goal: at least 1,000 per core.
--quick      1,000 packages per run instead of 10,000
--no-write   do not update test/bench/inspector/RESULTS.md
`;

const RESULTS = fileURLToPath(new URL("./RESULTS.md", import.meta.url));
const BEGIN = "<!-- bench:inspector latest -->";
const END = "<!-- /bench:inspector latest -->";
const GOAL = 1_000;

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((a) => a !== "--");
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(USAGE);
    return 0;
  }
  const unknown = args.filter((a) => a !== "--quick" && a !== "--no-write");
  if (unknown.length > 0) {
    process.stderr.write(`unknown option ${unknown[0]}\n\n${USAGE}`);
    return 2;
  }
  const quick = args.includes("--quick");
  const catalog = loadBundleCatalog();
  const { packages, clean, options } = await benchPackages(catalog);
  const count = quick ? 1_000 : 10_000;
  const warmup = quick ? 200 : 2_000;
  const sets = [
    { name: "clean (v20 L1, v20 L1+L2, masked, v19)", packages: packages.slice(0, clean) },
    { name: "whole corpus (clean and every broken case)", packages },
  ];
  const m = machineInfo();
  const rows: string[] = [];
  const medians: number[] = [];
  for (const set of sets) {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await measureInspector(set.packages, options, count, warmup));
    const median = [...runs].sort((a, b) => a.perCoreSecond - b.perCoreSecond)[1]!;
    medians.push(median.perCoreSecond);
    rows.push(
      ...runs.map(
        (r, i) =>
          `| ${set.name} | ${i + 1} | ${r.packages} | ${r.cpuMs.toFixed(0)} | ${r.wallMs.toFixed(0)} | ${r.perCoreSecond} | ${Object.entries(
            r.verdicts,
          )
            .map(([v, n]) => `${v} ${n}`)
            .join(", ")} |`,
      ),
    );
  }
  const [cleanMedian, allMedian] = medians as [number, number];
  const report = [
    BEGIN,
    `Measured ${new Date().toISOString().slice(0, 10)} on ${m.cpuModel} (${m.cpuCount} cores, load ${m.loadAverage}), Node ${m.node}, git ${m.git}.`,
    "",
    "| packages | run | inspected | CPU ms | wall ms | packages / s / core | verdicts |",
    "|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `Median ${cleanMedian} packages per second per core on clean packages, ${allMedian} on the whole corpus; goal ${GOAL}: ${cleanMedian >= GOAL ? "met" : "NOT met"} on clean packages.`,
    END,
  ].join("\n");
  process.stdout.write(`${report}\n`);
  if (!args.includes("--no-write")) {
    let text: string;
    try {
      text = readFileSync(RESULTS, "utf8");
    } catch {
      text = `# bench:inspector\n\nWritten by \`pnpm bench:inspector\` (test/bench/inspector/run-inspector.ts).\n\n${BEGIN}\n${END}\n`;
    }
    writeFileSync(RESULTS, text.replace(new RegExp(`${BEGIN}[\\s\\S]*${END}`), report));
  }
  return cleanMedian >= GOAL ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
