import type { RouteContract } from "@keyward/core/web";
import { extname } from "node:path";
import { PlatformError } from "@keyward/core/errors";
import { PAGE_SCRIPTS_PREFIX } from "@keyward/core/web";
import { buildPlatformSdk, SDK_MANIFEST_FILE } from "@keyward/sdk-browser/build";
import { routeParams } from "./exchange-attributes.js";
import type { RouteDefinition } from "./route-registry.js";
import { sendAsset, STATIC_CONTENT_TYPES } from "./static-assets.js";

/** The SDK's files by name under the prefix: fixed names, content-hashed aliases and the manifest. */
type SdkFiles = ReadonlyMap<string, Uint8Array>;

// One build per process, shared by every app: the bytes depend only on the SDK's sources.
let built: Promise<SdkFiles> | undefined;

function sdkFiles(): Promise<SdkFiles> {
  built ??= buildPlatformSdk().then(
    (sdk) => {
      const encode = (text: string) => new TextEncoder().encode(text);
      const files = new Map<string, Uint8Array>();
      for (const f of sdk.files) {
        const bytes = encode(f.contents);
        files.set(f.name, bytes);
        files.set(f.hashedName, bytes);
      }
      files.set(SDK_MANIFEST_FILE, encode(`${JSON.stringify(sdk.manifest, null, 2)}\n`));
      return files;
    },
    (error: unknown) => {
      built = undefined; // the next request tries again
      throw error;
    },
  );
  return built;
}

/**
 * `GET /js/**` (`PAGE_SCRIPTS_PREFIX`): the browser SDK and the page scripts the core's pages load
 * (`PAGE_SCRIPT_PATHS`), bundled by esbuild in memory on the first request (once per process), plus
 * each file's content-hashed alias (`platform-mfa-sdk.<12 hex>.js`, immutable for a year) and
 * `manifest.json` (fixed name → alias and integrity). Fixed names revalidate (ETag, `no-cache`).
 * Any other name answers 404 NOT_FOUND.
 */
export function sdkAssetsRoute(): RouteDefinition {
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
      const content = (await sdkFiles()).get(name);
      const contentType = STATIC_CONTENT_TYPES[extname(name).slice(1)];
      if (!content || !contentType) throw new PlatformError("NOT_FOUND", "Not found");
      sendAsset(exchange, { name, content, contentType });
    },
  };
}
