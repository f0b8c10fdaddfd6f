// The `pnpm check:function-length` command: no function longer than 80 lines in any package
// (packages/*: src, test-support, build, bin) or in scripts/, tests excepted. No baseline.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  checkFunctionLengths,
  type FunctionLengthException,
  formatReport,
  MAX_FUNCTION_LINES,
  measureSources,
  passes,
} from "./function-length.js";

/**
 * TEMPORARY, to be deleted by whoever merges the request-pipeline rewrite (issue 26): these two
 * functions are being rewritten on another branch, so they are not split here. Once that branch is
 * merged, empty this list and remove it; the check then has no exception at all.
 */
const TEMPORARY_EXCEPTIONS_UNTIL_PIPELINE_MERGE: readonly FunctionLengthException[] = [
  {
    file: "packages/adapters-http/src/create-http-app.ts",
    function: "createHttpApp",
    reason: "rewritten by the request-pipeline branch of issue 26",
  },
  {
    file: "packages/cli/src/demo-platform.ts",
    function: "buildDemoPlatform",
    reason: "rewritten by the request-pipeline branch of issue 26",
  },
];

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { files, functions } = measureSources(rootDir);
const report = checkFunctionLengths(functions, files.length, TEMPORARY_EXCEPTIONS_UNTIL_PIPELINE_MERGE);
for (const line of formatReport(report)) console.log(line);

const summary = `${functions.length} functions in ${files.length} files, limit ${MAX_FUNCTION_LINES} lines`;
if (passes(report)) {
  console.log(`function length: OK (${summary})`);
} else {
  console.error(`function length: ${report.offenders.length} function(s) over the limit (${summary})`);
  process.exitCode = 1;
}
