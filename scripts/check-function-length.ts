// The `pnpm check:function-length` command: no function longer than 80 lines in any package
// (packages/*: src, test-support, build, bin) or in scripts/, tests excepted. No baseline.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  checkFunctionLengths,
  formatReport,
  MAX_FUNCTION_LINES,
  measureSources,
  passes,
} from "./function-length.js";

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { files, functions } = measureSources(rootDir);
const report = checkFunctionLengths(functions, files.length);
for (const line of formatReport(report)) console.log(line);

const summary = `${functions.length} functions in ${files.length} files, limit ${MAX_FUNCTION_LINES} lines`;
if (passes(report)) {
  console.log(`function length: OK (${summary})`);
} else {
  console.error(`function length: ${report.offenders.length} function(s) over the limit (${summary})`);
  process.exitCode = 1;
}
