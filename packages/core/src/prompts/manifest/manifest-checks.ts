import { PlatformError } from "../../kernel/platform-error.js";
import { BUNDLE_ELEMENT_IDS, elementDigest, elementRecord } from "../hashing/bundle-element.js";
import type { ElementRecords } from "../hashing/bundle-hash.js";
import { bundleHash } from "../hashing/bundle-hash.js";
import type { BundleElementId, ElementSource } from "../hashing/bundle-element.js";
import type { BundleManifest } from "./bundle-manifest.js";

/**
 * Checks a manifest against its own records: each marker element (ABSENT, UNVERSIONED, INCLUDED)
 * must carry its marker's digest, and the bundle hash must be the hash of the eleven records.
 * A record is readable history: these stored hashes are all there is to check it by.
 */
export function checkStoredHashes(file: string, manifest: BundleManifest): void {
  for (const id of BUNDLE_ELEMENT_IDS) {
    const record = manifest.elements[id];
    if (record.state === "PRESENT") continue;
    const expected = elementDigest(id, { state: record.state });
    if (record.digest !== expected)
      throw new PlatformError(
        "PROMPT_BUNDLE_HASH_MISMATCH",
        `${file}: element ${id} (${record.name}) is ${record.state} but its digest is not the ${record.state} marker's`,
        { details: { manifest: file, element: id, expected, actual: record.digest } },
      );
  }
  const expected = bundleHash(manifest.elements);
  if (manifest.bundleHash !== expected)
    throw new PlatformError(
      "PROMPT_BUNDLE_HASH_MISMATCH",
      `${file}: bundleHash ${manifest.bundleHash} does not match its elements B1-B11 (they hash to ${expected})`,
      { details: { manifest: file, expected, actual: manifest.bundleHash } },
    );
}

/** The element records the code now produces, from the eleven sources. */
export function recordsOf(sources: Record<BundleElementId, ElementSource>): ElementRecords {
  return Object.fromEntries(
    BUNDLE_ELEMENT_IDS.map((id) => [id, elementRecord(id, sources[id])]),
  ) as ElementRecords;
}

/**
 * Checks a runnable bundle's manifest against what its code produces now; a difference is a prompt
 * change without a manifest update, named element by element.
 */
export function checkElementsCurrent(file: string, manifest: BundleManifest, current: ElementRecords): void {
  const stale = BUNDLE_ELEMENT_IDS.filter(
    (id) =>
      manifest.elements[id].digest !== current[id].digest ||
      manifest.elements[id].state !== current[id].state,
  );
  if (stale.length === 0) return;
  const named = stale.map((id) => `${id} (${current[id].name})`).join(", ");
  throw new PlatformError(
    "PROMPT_ELEMENT_STALE",
    `${file}: element ${named} no longer matches the code; run pnpm bundles:update after an intended change`,
    { details: { manifest: file, elements: stale } },
  );
}
