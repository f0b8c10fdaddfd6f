// Writes the browser SDK's prebuilt files into the package (dist/browser/), which the package ships
// and the HTTP adapter serves: the bundler runs here, at build time, never in a host's process.
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildPlatformSdk, SDK_MANIFEST_FILE, SDK_PACKAGE_DIR } from "./build-sdk.js";

/** Where the prebuilt files go: `dist/browser/` of the package (`@keyward/sdk-browser/assets/*`). */
export const SDK_ASSETS_DIR = join(SDK_PACKAGE_DIR, "dist", "browser");

/**
 * Bundles the SDK and writes every file under its fixed name and its content-hashed alias, plus
 * `manifest.json`, into `dir`. The files are written beside it first and swapped in with a rename, so
 * a process reading the directory sees the old set or the new one, not a half-written one.
 * Answers the names written.
 */
export async function writeSdkAssets(dir = SDK_ASSETS_DIR): Promise<string[]> {
  const sdk = await buildPlatformSdk();
  const staging = `${dir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const names: string[] = [];
  for (const f of sdk.files) {
    for (const name of [f.name, f.hashedName]) {
      writeFileSync(join(staging, name), f.contents);
      names.push(name);
    }
  }
  writeFileSync(join(staging, SDK_MANIFEST_FILE), `${JSON.stringify(sdk.manifest, null, 2)}\n`);
  names.push(SDK_MANIFEST_FILE);
  const old = `${dir}.${process.pid}.old`;
  rmSync(old, { recursive: true, force: true });
  try {
    renameSync(dir, old);
  } catch {
    // first build: nothing to move away
  }
  renameSync(staging, dir);
  rmSync(old, { recursive: true, force: true });
  return names.sort();
}
