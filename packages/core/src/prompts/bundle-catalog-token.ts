import type { InjectionToken } from "tsyringe";
import type { BundleCatalog as BundleCatalogPort } from "./manifest/bundle-catalog.js";

/** The catalog of checked bundle manifests the platform started with (read once at start). */
export type BundleCatalog = BundleCatalogPort;
/** DI token of the BundleCatalog. */
export const BundleCatalog: InjectionToken<BundleCatalog> = Symbol.for("platform.BundleCatalog");
