// The `pnpm report:surface` command: what @keyward/core exports, by the TypeScript compiler over its
// package.json `exports` (values and types per subpath, a name counted once per subpath), and the names
// exported from more than one subpath. `--list` prints every name. Fails (exit 1) when a name is
// exported twice or the total passes MAX_PUBLIC_NAMES; CI runs it as a step.
// It also compares every package's API report (docs/api/<package>.api.md: every published export
// with its type, scripts/api-report.ts) with the code and fails on a difference; `--write` rewrites
// them, so a change of the surface is a reviewed diff of those files.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { apiProgram, apiReports } from "./api-report.js";
import { formatSurfaceReport, measurePublicSurface, surfaceProblems } from "./public-surface.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const coreDir = join(root, "packages", "core");
const FOLDERS = ["core", "adapters-http", "adapters-mongo", "sdk-browser", "cli"];
const reported = FOLDERS.map((f) => ({ name: `@keyward/${f}`, dir: join(root, "packages", f) }));
const program = apiProgram(reported);
const surface = measurePublicSurface(coreDir, program);
for (const line of formatSurfaceReport(surface, process.argv.includes("--list"))) console.log(line);

const problems = surfaceProblems(surface);
const reports = apiReports(reported, program);
for (const folder of FOLDERS) {
  const file = join(root, "docs", "api", `${folder}.api.md`);
  const report = reports.get(`@keyward/${folder}`) ?? "";
  if (process.argv.includes("--write")) writeFileSync(file, report);
  else if (readOr(file) !== report)
    problems.push(
      `docs/api/${folder}.api.md differs from the code: review and run pnpm report:surface --write`,
    );
}
if (problems.length === 0) {
  console.log("public surface: OK");
} else {
  for (const problem of problems) console.error(`public surface: ${problem}`);
  process.exitCode = 1;
}

function readOr(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
