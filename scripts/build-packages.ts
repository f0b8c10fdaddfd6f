// `pnpm build`: every package to its dist/ (ES modules, .d.ts, source maps with their sources inline)
// with `tsc -b tsconfig.build.json` (project references: core first, the others against its
// declarations), the prompt bundles copied into the core's dist/ (the catalog's default root when
// installed), the browser SDK's prebuilt files, an executable `platform`. Starts clean: the tsc
// outputs of a previous build are removed first, so nothing stale is packed. Prints its seconds.
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeSdkAssets } from "../packages/sdk-browser/build/write-sdk-assets.js";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const PACKAGES = ["core", "adapters-http", "adapters-mongo", "sdk-browser", "cli"];
/** Kept by the cleaning: the SDK's prebuilt files are swapped in whole by writeSdkAssets. */
const KEPT = new Set(["browser"]);

function clean(): void {
  for (const name of PACKAGES) {
    const dist = join(ROOT, "packages", name, "dist");
    let entries: string[] = [];
    try {
      entries = readdirSync(dist);
    } catch {
      continue;
    }
    for (const entry of entries)
      if (!KEPT.has(entry)) rmSync(join(dist, entry), { recursive: true, force: true });
  }
}

const started = performance.now();
clean();
const tsc = spawnSync(process.execPath, [tscEntry(), "-b", "tsconfig.build.json"], {
  cwd: ROOT,
  stdio: "inherit",
});
if (tsc.status !== 0) {
  console.error(`build: tsc -b failed (exit ${tsc.status})`);
  process.exit(1);
}
cpSync(join(ROOT, "prompt-bundles"), join(ROOT, "packages/core/dist/prompt-bundles"), { recursive: true });
await writeSdkAssets();
chmodSync(join(ROOT, "packages/cli/dist/bin.js"), 0o755);
console.log(`build: ${PACKAGES.length} packages in ${((performance.now() - started) / 1000).toFixed(1)} s`);

/** The TypeScript compiler's entry script, as the workspace installed it. */
function tscEntry(): string {
  return fileURLToPath(import.meta.resolve("typescript/bin/tsc"));
}
