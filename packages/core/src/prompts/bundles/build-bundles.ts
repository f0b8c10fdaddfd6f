import type { BundleDefinition } from "./bundle-definition.js";
import { V19_BUNDLE } from "./v19-bundle.js";
import { V20_BUNDLE } from "./v20-bundle.js";

/** The bundles this build runs; every other manifest is a record only. */
export const BUILD_BUNDLES: readonly BundleDefinition[] = [V19_BUNDLE, V20_BUNDLE];

/** The version run when nothing else chose one. */
export const BUILD_DEFAULT_VERSION = V19_BUNDLE.descriptor.promptVersion;
