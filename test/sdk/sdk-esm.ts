import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildPlatformSdk, SDK_ESM_FILE } from "../../packages/sdk-browser/build/build-sdk.js";

/** The built ES module of the SDK (`platform-mfa-sdk.esm.js`), imported in Node once per test file. */
let loaded: Promise<Record<string, unknown>> | undefined;

/**
 * Imports the built ES module: its pure functions (the interceptor's decision table, the retry
 * rules) run in Node as they run in the page. The root program never imports `src/` (DOM types).
 */
export function builtEsm(): Promise<Record<string, unknown>> {
  loaded ??= (async () => {
    const built = await buildPlatformSdk();
    const file = built.files.find((f) => f.name === SDK_ESM_FILE);
    if (!file) throw new Error(`no ${SDK_ESM_FILE}`);
    const dir = mkdtempSync(join(tmpdir(), "sdk-esm-"));
    try {
      const path = join(dir, "platform-mfa-sdk.mjs");
      writeFileSync(path, file.contents);
      return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  })();
  return loaded;
}
