// `pnpm bundles:update`: after an intended prompt change, rewrites the manifest of every bundle this
// build runs (its element digests and bundle hash) and its committed golden renders. Records are
// never touched. Prints what changed; a clean tree stays clean.
import "reflect-metadata";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
// The maintainers' writers are not public API: this script reads them from the core's sources.
import { BUILD_BUNDLES, DEFAULT_BUNDLE_ROOT } from "@keyward/core/prompts";
import { goldenRenderFile, goldenRenders } from "../packages/core/src/prompts/bundles/element-sources.js";
import {
  goldenRenderDirectory,
  manifestDirectory,
  readGoldenInputs,
} from "../packages/core/src/prompts/manifest/bundle-root.js";
import { manifestFor, manifestText } from "../packages/core/src/prompts/manifest/manifest-writer.js";

function writeIfChanged(path: string, text: string): boolean {
  let old: string | undefined;
  try {
    old = readFileSync(path, "utf8");
  } catch {}
  if (old === text) return false;
  writeFileSync(path, text);
  return true;
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

const root = process.argv[2] ?? DEFAULT_BUNDLE_ROOT;
const changed: string[] = [];
for (const bundle of BUILD_BUNDLES) {
  const { promptKey, promptVersion } = bundle.descriptor;
  const inputs = readGoldenInputs(root, bundle.goldenInputs);
  const manifestDir = manifestDirectory(root, promptKey);
  mkdirSync(manifestDir, { recursive: true });
  const manifestPath = join(manifestDir, `${promptVersion}.json`);
  const manifest = manifestFor(bundle, inputs);
  // Compared as JSON: biome formats the file after writing (package.json script), not byte for byte.
  if (!isDeepStrictEqual(readJson(manifestPath), JSON.parse(JSON.stringify(manifest)))) {
    writeFileSync(manifestPath, manifestText(manifest));
    changed.push(manifestPath);
  }
  const renderDir = goldenRenderDirectory(root, promptVersion);
  mkdirSync(renderDir, { recursive: true });
  const renders = goldenRenders(bundle, inputs);
  const wanted = new Set(renders.map(goldenRenderFile));
  for (const stale of readdirSync(renderDir).filter((f) => !wanted.has(f))) {
    rmSync(join(renderDir, stale));
    changed.push(join(renderDir, stale));
  }
  for (const render of renders) {
    const path = join(renderDir, goldenRenderFile(render));
    if (writeIfChanged(path, render.user)) changed.push(path);
  }
}
console.log(
  changed.length
    ? `Updated:\n${changed.map((p) => `  ${p}`).join("\n")}`
    : "Every manifest and golden render is current.",
);
