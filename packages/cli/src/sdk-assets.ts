import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { buildPlatformSdk, SDK_MANIFEST_FILE, type SdkManifest } from "@platform/sdk-browser/build";

/** Where `platform start` writes the built browser SDK (served under `/js`). */
export const SDK_ASSET_DIRECTORY = resolve(".platform/js");

/** What `writeSdkAssets` wrote. */
export interface WrittenSdkAssets {
  directory: string;
  /** Bytes of the gzipped IIFE. */
  gzipBytes: number;
  /** Fixed name → hashed alias and integrity (also written as `manifest.json`). */
  manifest: SdkManifest;
}

/**
 * Builds the browser SDK with esbuild (in memory, tens of milliseconds) and writes it where the
 * static route serves it: under the fixed names (`/js/platform-mfa-sdk.js`, the IIFE with
 * `window.PlatformMFA`; `/js/platform-mfa-sdk.esm.js`; the page scripts), served with an ETag and
 * `Cache-Control: no-cache`; under content-hashed aliases (`/js/platform-mfa-sdk.<12 hex>.js`), served
 * `immutable` for a year; and `/js/manifest.json`, which maps each fixed name to its alias and its
 * Subresource Integrity. Aliases of earlier builds are left in place: a page cached with an older
 * alias still loads. No separate build step: `pnpm start` does this each time.
 */
export async function writeSdkAssets(directory = SDK_ASSET_DIRECTORY): Promise<WrittenSdkAssets> {
  const built = await buildPlatformSdk();
  await mkdir(directory, { recursive: true });
  await Promise.all(
    built.files.flatMap((f) => [
      writeFile(join(directory, f.name), f.contents),
      writeFile(join(directory, f.hashedName), f.contents),
    ]),
  );
  await writeFile(join(directory, SDK_MANIFEST_FILE), `${JSON.stringify(built.manifest, null, 2)}\n`);
  return { directory, gzipBytes: built.gzipBytes, manifest: built.manifest };
}
