import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * The URL a shadow worker starts from. Built (dist/, an installed package), the compiled
 * `shadow-worker-thread.js` beside this file. From the sources (tsx in dev, vitest), worker threads do
 * not inherit the TypeScript loader, so a tiny ESM `data:` module loads the `.ts` entry through tsx's
 * `tsImport` (the house's worker bootstrap); tsx not found throws, and the executor falls back.
 */
export function shadowWorkerEntry(): URL {
  const fromSources = import.meta.url.endsWith(".ts");
  const entry = new URL(`./shadow-worker-thread.${fromSources ? "ts" : "js"}`, import.meta.url);
  if (!fromSources) return entry;
  const api = JSON.stringify(tsxEsmApi());
  const target = JSON.stringify(entry.href);
  const code = `import { tsImport } from ${api};\nawait tsImport(${target}, ${target});\n`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/** tsx's ESM API module, found from this file (the workspace's tsx). */
function tsxEsmApi(): string {
  const manifest = createRequire(import.meta.url).resolve("tsx/package.json");
  const exports = JSON.parse(readFileSync(manifest, "utf8")).exports as Record<string, unknown>;
  const esm = (exports["./esm/api"] as { import?: { default?: string } } | undefined)?.import?.default;
  if (typeof esm !== "string") throw new Error("tsx has no ./esm/api export");
  return pathToFileURL(join(dirname(manifest), esm)).href;
}
