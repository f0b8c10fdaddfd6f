// The `pnpm report:surface` command: what @keyward/core exports, by the TypeScript compiler over its
// package.json `exports` (values and types per subpath, a name counted once per subpath), and the names
// exported from more than one subpath. `--list` prints every name. Fails (exit 1) when a name is
// exported twice or the total passes MAX_PUBLIC_NAMES; CI runs it as a step.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { formatSurfaceReport, measurePublicSurface, surfaceProblems } from "./public-surface.js";

const coreDir = resolve(dirname(fileURLToPath(import.meta.url)), "..", "packages", "core");
const surface = measurePublicSurface(coreDir);
for (const line of formatSurfaceReport(surface, process.argv.includes("--list"))) console.log(line);

const problems = surfaceProblems(surface);
if (problems.length === 0) {
  console.log("public surface: OK");
} else {
  for (const problem of problems) console.error(`public surface: ${problem}`);
  process.exitCode = 1;
}
