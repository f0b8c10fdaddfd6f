// The `pnpm check:function-length` command: no function in packages/core/src longer than 80 lines,
// except the ones listed in scripts/function-length-baseline.json, and those may only get shorter.
//   --prune     rewrite the baseline without the entries now within the limit, lowering shrunk ones
//   --measure   print every function over the limit as baseline entries (to start a baseline)
import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  compareWithBaseline,
  formatReport,
  MAX_FUNCTION_LINES,
  measureCore,
  passes,
  prunedBaseline,
  readBaseline,
} from "./function-length.js";

const here = dirname(fileURLToPath(import.meta.url));
const rootDir = resolve(here, "..");
const baselinePath = resolve(here, "function-length-baseline.json");
const args = new Set(process.argv.slice(2).filter((arg) => arg !== "--"));

const { files, functions } = measureCore(rootDir);

if (args.has("--measure")) {
  const entries = functions
    .filter((fn) => fn.lines > MAX_FUNCTION_LINES)
    .map((fn) => ({ file: fn.file, function: fn.name, lines: fn.lines }));
  console.log(JSON.stringify({ entries }, null, 2));
} else {
  const baseline = readBaseline(baselinePath);
  const report = compareWithBaseline(functions, baseline, files.length);
  for (const line of formatReport(report)) console.log(line);

  if (args.has("--prune")) {
    const pruned = prunedBaseline(report, baseline);
    writeFileSync(baselinePath, `${JSON.stringify(pruned, null, 2)}\n`);
    console.log(`function length: baseline now lists ${pruned.entries.length} function(s)`);
  }

  const summary =
    `${functions.length} functions in ${files.length} files, limit ${MAX_FUNCTION_LINES} lines, ` +
    `${baseline.entries.length} baseline entries`;
  if (passes(report)) {
    console.log(`function length: OK (${summary})`);
  } else {
    console.error(
      `function length: ${report.newOffenders.length} new offender(s), ${report.grown.length} grown (${summary})`,
    );
    process.exitCode = 1;
  }
}
