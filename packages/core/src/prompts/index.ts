// @keyward/core/prompts: the security-decision prompt bundles this build runs and what the tools
// that maintain them need: the plugin and the catalog it serves (checked on read), the bundle root,
// and what the CLI's `platform bundles` commands are built on (the catalog read from a folder, the
// prompt input parsed from JSON). The hash and the layouts stay inside (docs/prompt-bundles.md describes them).

// The module's error codes merge into PlatformErrorCodes (types); its plugin contributes the table.
import "./prompts-error-codes.js";

// Plugging in
export { BundleCatalog } from "./bundle-catalog-token.js";
export { createPromptsPlugin, promptsPlugin } from "./prompts-plugin.js";
export { type CatalogEntry, loadBundleCatalog } from "./manifest/bundle-catalog.js";
export { parsePromptInput } from "./input/prompt-input.js";

// The bundles this build runs and where their manifests are (the writers `pnpm bundles:update` uses
// stay inside: the script reads them from the sources)
export { BUILD_BUNDLES } from "./bundles/build-bundles.js";
export { DEFAULT_BUNDLE_ROOT } from "./manifest/bundle-root.js";
