// Node side of the browser SDK: bundles src/ with esbuild, in memory. Never imported by the browser code.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { type BuildOptions, build } from "esbuild";

/** One built file of the SDK. */
export interface BuiltSdkFile {
  /** The file name under `/js/` (`platform-mfa-sdk.js`, `platform-mfa-sdk.esm.js`, `platform-login-page.js`...). */
  name: string;
  contents: string;
  /**
   * The content-hashed alias (`platform-mfa-sdk.<first 12 hex of the sha-256>.js`): same bytes, a URL
   * that never serves others, so it may be cached immutably.
   */
  hashedName: string;
  /** Subresource Integrity of the contents (`sha384-…`), for `<script integrity>`. */
  integrity: string;
}

/**
 * `manifest.json` beside the files: each fixed name → its hashed alias (a name relative to the
 * manifest's own URL, e.g. `/js/`) and integrity, so a host page can reference the immutable URLs.
 */
export interface SdkManifest {
  version: string;
  files: Record<string, { file: string; integrity: string }>;
}

/** The built SDK: its files and the gzipped size of the IIFE. */
export interface BuiltSdk {
  /** The IIFE, the ES module, the page scripts (in {@link SDK_PAGE_SCRIPTS} order), then the stylesheets. */
  files: BuiltSdkFile[];
  /** The hashed aliases by fixed name (written as {@link SDK_MANIFEST_FILE}). */
  manifest: SdkManifest;
  /** Bytes of `platform-mfa-sdk.js` after gzip (level 9): what the 15 KB budget is checked against. */
  gzipBytes: number;
  /** Bytes of each page script after gzip (level 9), by file name (no budget: reported). */
  pageScriptGzipBytes: Record<string, number>;
}

/** The IIFE served to pages: defines `window.PlatformMFA`. */
export const SDK_IIFE_FILE = "platform-mfa-sdk.js";
/** The ES module build with the same API as `@keyward/sdk-browser`. */
export const SDK_ESM_FILE = "platform-mfa-sdk.esm.js";
/**
 * The page scripts of the core's pages (`/js/<name>`), each an IIFE, by entry. The four of the MFA page
 * contract drive their page through `window.PlatformMFA` (so the SDK script must load first, as the
 * pages' deferred tags do); `platform-passkeys-page.js` (the `/passkeys` page),
 * `platform-policy-center-page.js` (the Policy Center's create tab) and `platform-releases-page.js`
 * (the prompt releases page) stand alone.
 */
export const SDK_PAGE_SCRIPTS = [
  { name: "platform-login-page.js", entry: "src/pages/login-page.ts" },
  { name: "platform-ott-request-page.js", entry: "src/pages/ott-request-page.ts" },
  { name: "platform-ott-verify-page.js", entry: "src/pages/ott-verify-page.ts" },
  { name: "platform-passkey-page.js", entry: "src/pages/passkey-page.ts" },
  { name: "platform-passkeys-page.js", entry: "src/pages/passkeys-page.ts" },
  { name: "platform-policy-center-page.js", entry: "src/pages/policy-center-page.ts" },
  { name: "platform-releases-page.js", entry: "src/pages/releases-page.ts" },
] as const;
/**
 * The stylesheets the core's pages link (`/js/<name>`), copied as written: plain CSS, no build step.
 * `platform-console.css` is the administrators' console's (`CONSOLE_STYLESHEET`).
 */
export const SDK_STYLESHEETS = [
  { name: "platform-console.css", source: "src/styles/platform-console.css" },
] as const;
/** The manifest of the hashed aliases, written beside the files (`/js/manifest.json`). */
export const SDK_MANIFEST_FILE = "manifest.json";
/** Hex digits of the content hash in a hashed alias (the static route checks them against the bytes). */
export const SDK_CONTENT_HASH_LENGTH = 12;
/** The version the manifest names (the browser SDK's public API version; src/version.ts holds the same). */
export const SDK_MANIFEST_VERSION = "2.2.0";
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
 * `src/index.ts` and the page scripts from `src/pages/` (IIFEs), minified for ES2020 browsers,
 * the stylesheets as written, plus the gzipped sizes.
 */
export async function buildPlatformSdk(): Promise<BuiltSdk> {
  const [iife, esm, ...pages] = await Promise.all([
    bundle({ entry: "src/global.ts", format: "iife", name: SDK_IIFE_FILE }),
    bundle({ entry: "src/index.ts", format: "esm", name: SDK_ESM_FILE }),
    ...SDK_PAGE_SCRIPTS.map((p) => bundle({ entry: p.entry, format: "iife", name: p.name })),
  ]);
  if (!iife || !esm) throw new Error("esbuild produced no SDK");
  const styles = SDK_STYLESHEETS.map((css) =>
    builtFile(css.name, readFileSync(join(SDK_PACKAGE_DIR, css.source), "utf8")),
  );
  const files = [iife, esm, ...pages, ...styles];
  return {
    files,
    manifest: {
      version: SDK_MANIFEST_VERSION,
      files: Object.fromEntries(files.map((f) => [f.name, { file: f.hashedName, integrity: f.integrity }])),
    },
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
  return builtFile(o.name, file.text);
}

// A file with its content-hashed alias (`<name>.<12 hex>.<ext>`) and its integrity.
function builtFile(name: string, contents: string): BuiltSdkFile {
  const hex = createHash("sha256").update(contents).digest("hex").slice(0, SDK_CONTENT_HASH_LENGTH);
  return {
    name,
    contents,
    hashedName: name.replace(/\.(js|css)$/, `.${hex}.$1`),
    integrity: `sha384-${createHash("sha384").update(contents).digest("base64")}`,
  };
}
