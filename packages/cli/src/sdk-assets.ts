import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { buildPlatformSdk } from "@platform/sdk-browser/build";

/** Where `platform start` writes the built browser SDK (served under `/js`). */
export const SDK_ASSET_DIRECTORY = resolve(".platform/js");

/**
 * Builds the browser SDK with esbuild (in memory, tens of milliseconds) and writes it where the
 * static route serves it: `/js/platform-mfa-sdk.js` (IIFE, `window.PlatformMFA`) and
 * `/js/platform-mfa-sdk.esm.js`. No separate build step: `pnpm start` does this each time.
 */
export async function writeSdkAssets(
  directory = SDK_ASSET_DIRECTORY,
): Promise<{ directory: string; gzipBytes: number }> {
  const built = await buildPlatformSdk();
  await mkdir(directory, { recursive: true });
  await Promise.all(
    built.files.map((f: { name: string; contents: string }) =>
      writeFile(join(directory, f.name), f.contents),
    ),
  );
  return { directory, gzipBytes: built.gzipBytes };
}
