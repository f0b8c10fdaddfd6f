// @platform/core/prompts: the security-decision prompt bundles this build runs, their manifests and
// the eleven-element bundle hash, the catalog that checks them on read, and the renders of both
// layouts. The CLI's `platform bundles` commands and `pnpm bundles:update` are built on it.

// The module's error codes merge into PlatformErrorCodes (types); its plugin contributes the table.
import "./prompts-error-codes.js";

// Plugging in
export { BundleCatalog } from "./bundle-catalog-token.js";
export { createPromptsPlugin, promptsPlugin } from "./prompts-plugin.js";
export { type PromptsErrorDetails, PROMPTS_ERROR_CODES } from "./prompts-error-codes.js";

// Bundles and their code
export { BUILD_BUNDLES, BUILD_DEFAULT_VERSION } from "./bundles/build-bundles.js";
export {
  type BundleDefinition,
  type GovernanceDescriptor,
  PROMPT_LAYOUTS,
  type PromptLayout,
  SECURITY_DECISION_PROMPT_KEY,
} from "./bundles/bundle-definition.js";
export type { BudgetProfile } from "./bundles/budget-profile.js";
export {
  elementSources,
  type GoldenInputs,
  type GoldenRender,
  goldenRenderFile,
  goldenRenders,
} from "./bundles/element-sources.js";

// The hash
export {
  BUNDLE_ELEMENT_IDS,
  BUNDLE_ELEMENTS,
  type BundleElementId,
  ELEMENT_STATES,
  type ElementRecord,
  type ElementSource,
  type ElementState,
  elementDigest,
  elementPreimage,
} from "./hashing/bundle-element.js";
export {
  BUNDLE_HASH_FORMAT,
  bundleHash,
  bundleHashPreimage,
  type ElementRecords,
} from "./hashing/bundle-hash.js";
export { canonicalJson, type JsonValue, sha256Hex, utf8Hex } from "./hashing/canonical-json.js";

// Manifests and the catalog
export {
  type BundleCatalogOptions,
  type CatalogEntry,
  loadBundleCatalog,
} from "./manifest/bundle-catalog.js";
export { type BundleManifest, manifestName } from "./manifest/bundle-manifest.js";
export {
  DEFAULT_BUNDLE_ROOT,
  goldenRenderDirectory,
  manifestDirectory,
  readGoldenInputs,
} from "./manifest/bundle-root.js";
export { manifestFor, manifestText } from "./manifest/manifest-writer.js";

// Inputs and renders
export { type PastRecordInput, type PromptInput, parsePromptInput } from "./input/prompt-input.js";
export type { PromptRender } from "./layouts/prompt-render.js";
export type { DrawnFact, UnknownFact } from "./layouts/v20/render-v20.js";
export type { UnknownKind } from "./layouts/v20/fact-values.js";
export { countTokens, TOKEN_ENCODING } from "./tokens/token-counter.js";
