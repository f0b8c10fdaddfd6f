// Node side of the browser SDK: bundles src/ with esbuild, in memory. Never imported by the browser code.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { type BuildOptions, build } from "esbuild";

/** One built file of the SDK. */
export interface BuiltSdkFile {
  /** The file name under `/js/` (`platform-mfa-sdk.js`, `platform-mfa-sdk.esm.js`, `platform-login-page.js`...). */
  name: string;
  contents: string;
}

/** The built SDK: its files and the gzipped size of the IIFE. */
export interface BuiltSdk {
  /** The IIFE, the ES module, then the page scripts (in {@link SDK_PAGE_SCRIPTS} order). */
  files: BuiltSdkFile[];
  /** Bytes of `platform-mfa-sdk.js` after gzip (level 9): what the 15 KB budget is checked against. */
  gzipBytes: number;
  /** Bytes of each page script after gzip (level 9), by file name (no budget: reported). */
  pageScriptGzipBytes: Record<string, number>;
}

/** The IIFE served to pages: defines `window.PlatformMFA`. */
export const SDK_IIFE_FILE = "platform-mfa-sdk.js";
/** The ES module build with the same API as `@platform/sdk-browser`. */
export const SDK_ESM_FILE = "platform-mfa-sdk.esm.js";
/**
 * The page scripts of the MFA page contract (`/js/<name>`), each an IIFE that drives one page through
 * `window.PlatformMFA` (so the SDK script must load first, as the pages' deferred tags do), by entry.
 */
export const SDK_PAGE_SCRIPTS = [
  { name: "platform-login-page.js", entry: "src/pages/login-page.ts" },
  { name: "platform-ott-request-page.js", entry: "src/pages/ott-request-page.ts" },
  { name: "platform-ott-verify-page.js", entry: "src/pages/ott-verify-page.ts" },
  { name: "platform-passkey-page.js", entry: "src/pages/passkey-page.ts" },
] as const;
/** The budget of the gzipped IIFE (15 KB). */
export const SDK_GZIP_BUDGET_BYTES = 15 * 1024;

/** The package's folder (this file is `<package>/build/build-sdk.ts`). */
export const SDK_PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");

const COMMON: BuildOptions = {
  absWorkingDir: SDK_PACKAGE_DIR,
  tsconfig: join(SDK_PACKAGE_DIR, "tsconfig.json"),
  bundle: true,
  minify: true,
  target: "es2020",
  platform: "browser",
  write: false,
  charset: "utf8",
  legalComments: "none",
  logLevel: "silent",
};

/**
 * Bundles the SDK with esbuild's JS API in memory (`write: false`; tens of milliseconds): the IIFE
 * `platform-mfa-sdk.js` from `src/global.ts`, the ES module `platform-mfa-sdk.esm.js` from
 * `src/index.ts` and the four page scripts from `src/pages/` (IIFEs), minified for ES2020 browsers,
 * plus the gzipped sizes.
 */
export async function buildPlatformSdk(): Promise<BuiltSdk> {
  const [iife, esm, ...pages] = await Promise.all([
    bundle({ entry: "src/global.ts", format: "iife", name: SDK_IIFE_FILE }),
    bundle({ entry: "src/index.ts", format: "esm", name: SDK_ESM_FILE }),
    ...SDK_PAGE_SCRIPTS.map((p) => bundle({ entry: p.entry, format: "iife", name: p.name })),
  ]);
  if (!iife || !esm) throw new Error("esbuild produced no SDK");
  return {
    files: [iife, esm, ...pages],
    gzipBytes: gzipBytes(iife.contents),
    pageScriptGzipBytes: Object.fromEntries(pages.map((p) => [p.name, gzipBytes(p.contents)])),
  };
}

function gzipBytes(text: string): number {
  return gzipSync(text, { level: 9 }).byteLength;
}

async function bundle(o: { entry: string; format: "iife" | "esm"; name: string }): Promise<BuiltSdkFile> {
  const result = await build({
    ...COMMON,
    entryPoints: [join(SDK_PACKAGE_DIR, o.entry)],
    format: o.format,
    outfile: join(SDK_PACKAGE_DIR, "dist", o.name),
  });
  const file = result.outputFiles?.find((f) => f.path.endsWith(o.name));
  if (!file) throw new Error(`esbuild produced no ${o.name}`);
  return { name: o.name, contents: file.text };
}
