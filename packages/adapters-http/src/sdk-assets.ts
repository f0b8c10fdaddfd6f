import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, extname, join } from "node:path";
import type { RouteContract } from "@keyward/core/web";
import { PlatformError } from "@keyward/core/errors";
import { PAGE_SCRIPTS_PREFIX } from "@keyward/core/web";
import { routeParams } from "./exchange-attributes.js";
import type { RouteDefinition } from "./route-registry.js";
import { sendAsset, STATIC_CONTENT_TYPES } from "./static-assets.js";

/** The SDK's files by name under the prefix: fixed names, content-hashed aliases and the manifest. */
type SdkFiles = ReadonlyMap<string, Uint8Array>;

/** The file every build of the SDK's assets writes (`@keyward/sdk-browser/assets/manifest.json`). */
const SDK_ASSETS_MANIFEST = "@keyward/sdk-browser/assets/manifest.json";

/**
 * The directory of the SDK's prebuilt files (`@keyward/sdk-browser`'s `dist/browser/`, written by its
 * build; in the workspace by `pnpm install` and `pnpm build`). A missing one stops the app's creation.
 */
function sdkAssetsDirectory(): string {
  try {
    return dirname(createRequire(import.meta.url).resolve(SDK_ASSETS_MANIFEST));
  } catch (cause) {
    throw new Error(
      `The browser SDK's prebuilt files are missing (${SDK_ASSETS_MANIFEST}): reinstall @keyward/sdk-browser, or in the repository run pnpm install`,
      { cause },
    );
  }
}

// One read per directory and process, shared by every app: the files never change while it runs.
const loaded = new Map<string, Promise<SdkFiles>>();

function sdkFiles(dir: string): Promise<SdkFiles> {
  let files = loaded.get(dir);
  if (!files) {
    files = readAll(dir);
    files.catch(() => loaded.delete(dir)); // the next request tries again
    loaded.set(dir, files);
  }
  return files;
}

async function readAll(dir: string): Promise<SdkFiles> {
  const names = await readdir(dir);
  const files = new Map<string, Uint8Array>();
  for (const name of names) files.set(name, new Uint8Array(await readFile(join(dir, name))));
  return files;
}

/**
 * `GET /js/**` (`PAGE_SCRIPTS_PREFIX`): the browser SDK and the page scripts the core's pages load
 * (`PAGE_SCRIPT_PATHS`), prebuilt by the SDK package's build and read from it on the first request
 * (once per process; no bundler runs in the host), plus each file's content-hashed alias
 * (`platform-mfa-sdk.<12 hex>.js`, immutable for a year) and `manifest.json` (fixed name → alias and
 * integrity). Fixed names revalidate (ETag, `no-cache`). Any other name answers 404 NOT_FOUND.
 */
export function sdkAssetsRoute(): RouteDefinition {
  const dir = sdkAssetsDirectory();
  return {
    method: "GET",
    path: `${PAGE_SCRIPTS_PREFIX}/**`,
    description: "The browser SDK and the page scripts",
    meta: {
      kind: "sdk-assets",
      contract: {
        pathParams: [
          {
            name: "path",
            description: "The script's name (`platform-mfa.js`, a page script, `manifest.json`)",
          },
        ],
        responses: {
          200: { description: "The script (`manifest.json`: JSON)", media: "javascript" },
          304: { description: "Not modified (ETag)", media: "none" },
        },
        errors: ["NOT_FOUND"],
      } satisfies RouteContract,
    },
    name: "http.sdk-assets",
    feature: "http",
    access: "public",
    callerContext: false,
    handler: async (exchange) => {
      const name = routeParams(exchange)["**"] ?? "";
      const content = (await sdkFiles(dir)).get(name);
      const contentType = STATIC_CONTENT_TYPES[extname(name).slice(1)];
      if (!content || !contentType) throw new PlatformError("NOT_FOUND", "Not found");
      sendAsset(exchange, { name, content, contentType });
    },
  };
}
