import { BUNDLE_ELEMENT_IDS, type BundleElementId, type ElementRecord } from "./bundle-element.js";
import { canonicalJson, sha256Hex } from "./canonical-json.js";

/** Names the preimage format, so a later change of the scheme can never collide with this one. */
export const BUNDLE_HASH_FORMAT = "platform.prompt-bundle-hash/1";

/** The eleven element records of a bundle, by id. */
export type ElementRecords = Readonly<Record<BundleElementId, ElementRecord>>;

/**
 * The canonical JSON a bundle hash covers: the format tag and every element's id, state and digest,
 * B1 to B11 in that order (names are labels and stay out).
 */
export function bundleHashPreimage(elements: ElementRecords): string {
  return canonicalJson({
    elements: BUNDLE_ELEMENT_IDS.map((id) => ({
      digest: elements[id].digest,
      element: id,
      state: elements[id].state,
    })),
    format: BUNDLE_HASH_FORMAT,
  });
}

/** The bundle hash: lower-case hex SHA-256 of `bundleHashPreimage`. */
export function bundleHash(elements: ElementRecords): string {
  return sha256Hex(bundleHashPreimage(elements));
}
