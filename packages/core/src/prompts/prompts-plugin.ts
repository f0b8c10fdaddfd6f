import type { PlatformPlugin } from "../kernel/plugin.js";
import { BundleCatalog } from "./bundle-catalog-token.js";
import { type BundleCatalogOptions, loadBundleCatalog } from "./manifest/bundle-catalog.js";
import { PROMPTS_PROPERTIES } from "./prompts.properties.js";
// The module's error codes merge into PlatformErrorCodes (types); its plugin contributes the table.
import { PROMPTS_ERROR_CODES } from "./prompts-error-codes.js";

/**
 * The prompts module as a plugin: registers the BundleCatalog (default: the build's manifests) and
 * reads it at start, so a tampered or stale manifest, or two manifests of one name, stop start-up
 * with a message naming the manifest and the element.
 */
export function createPromptsPlugin(options: BundleCatalogOptions = {}): PlatformPlugin {
  return {
    id: "prompts",
    properties: PROMPTS_PROPERTIES,
    errorCodes: [PROMPTS_ERROR_CODES],
    register(ctx) {
      ctx.registerDefault(BundleCatalog, { useFactory: () => loadBundleCatalog(options) });
      ctx.onStart("prompts:verify-bundles", (container) => {
        container.resolve(BundleCatalog);
      });
    },
  };
}

/** The prompts plugin over the build's own manifests. */
export const promptsPlugin: PlatformPlugin = createPromptsPlugin();
