import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { GoldenInputs } from "../bundles/element-sources.js";

// Built (dist/prompts/manifest/), `pnpm build` copies the repository's prompt-bundles/ into dist/, which
// the package ships; from the sources (src/ has none), the repository's own directory.
const PACKAGED_BUNDLE_ROOT = new URL("../../prompt-bundles", import.meta.url);

/**
 * The `prompt-bundles/` directory: the manifests, their schema, the golden inputs and renders. It
 * plays the part of a classpath: the build ships it beside the code (the package's dist/), and the
 * workspace reads the repository's.
 */
export const DEFAULT_BUNDLE_ROOT = fileURLToPath(
  existsSync(PACKAGED_BUNDLE_ROOT)
    ? PACKAGED_BUNDLE_ROOT
    : new URL("../../../../../prompt-bundles", import.meta.url),
);

/** The directory of a prompt key's manifests under `root`. */
export function manifestDirectory(root: string, promptKey: string): string {
  return join(root, "manifests", promptKey);
}

/** The directory of the committed golden renders of a version under `root`. */
export function goldenRenderDirectory(root: string, version: string): string {
  return join(root, "golden", "renders", version);
}

/** Reads the golden inputs named (`golden/inputs/<name>.json` under `root`). */
export function readGoldenInputs(root: string, names: Iterable<string>): GoldenInputs {
  const inputs = new Map<string, unknown>();
  for (const name of names)
    inputs.set(name, JSON.parse(readFileSync(join(root, "golden", "inputs", `${name}.json`), "utf8")));
  return inputs;
}

/** The `<prompt key>/<file>.json` manifest files under a manifests directory, sorted. */
export function listManifestFiles(manifestsDir: string): string[] {
  if (!existsSync(manifestsDir)) return [];
  return readdirSync(manifestsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(manifestsDir, d.name))
        .filter((f) => f.endsWith(".json"))
        .map((f) => join(manifestsDir, d.name, f)),
    )
    .sort();
}
