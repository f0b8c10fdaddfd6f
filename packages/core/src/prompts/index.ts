// @keyward/core/prompts: the security-decision prompt bundles this build runs and what the tools
// that maintain them need: the plugin and the catalog it serves (checked on read), the bundle root,
// and the manifest and golden-render writers that `pnpm bundles:update` and the CLI's
// `platform bundles` commands are built on (the catalog read from a folder, the prompt input parsed from
// JSON). The hash and the layouts stay inside (docs/prompt-bundles.md describes them).

// The module's error codes merge into PlatformErrorCodes (types); its plugin contributes the table.
import "./prompts-error-codes.js";

// Plugging in
export { BundleCatalog } from "./bundle-catalog-token.js";
export { createPromptsPlugin, promptsPlugin } from "./prompts-plugin.js";
export { type CatalogEntry, loadBundleCatalog } from "./manifest/bundle-catalog.js";
export { parsePromptInput } from "./input/prompt-input.js";

// The bundles, their manifests and golden renders (for `pnpm bundles:update`)
export { BUILD_BUNDLES } from "./bundles/build-bundles.js";
export { goldenRenderFile, goldenRenders } from "./bundles/element-sources.js";
export {
  DEFAULT_BUNDLE_ROOT,
  goldenRenderDirectory,
  manifestDirectory,
  readGoldenInputs,
} from "./manifest/bundle-root.js";
export { manifestFor, manifestText } from "./manifest/manifest-writer.js";
