import { canonicalJson, type JsonValue, sha256Hex } from "./canonical-json.js";

/** The eleven elements a bundle hash covers, in hash order, with their names. */
export const BUNDLE_ELEMENTS = [
  { id: "B1", name: "System text" },
  { id: "B2", name: "Dictionary" },
  { id: "B3", name: "Golden render" },
  { id: "B4", name: "Output format" },
  { id: "B5", name: "Minimum action rules" },
  { id: "B6", name: "Response inspector" },
  { id: "B7", name: "Retrieval" },
  { id: "B8", name: "Budgets" },
  { id: "B9", name: "Verifier contracts" },
  { id: "B10", name: "Vocabulary" },
  { id: "B11", name: "Second analysis" },
] as const;

/** One of B1 … B11. */
export type BundleElementId = (typeof BUNDLE_ELEMENTS)[number]["id"];

/** Every element id, in hash order. */
export const BUNDLE_ELEMENT_IDS: readonly BundleElementId[] = BUNDLE_ELEMENTS.map((e) => e.id);

/** The name of element `id` ("System text", ...). */
export function elementName(id: BundleElementId): string {
  return BUNDLE_ELEMENTS.find((e) => e.id === id)!.name;
}

/**
 * How an element takes part in the identity: PRESENT hashes its content; ABSENT (not part of this
 * bundle), UNVERSIONED (in use, but its source was not kept under version) and INCLUDED (covered
 * by another element) each hash a fixed marker, so the state itself is part of the identity.
 */
export const ELEMENT_STATES = ["PRESENT", "ABSENT", "UNVERSIONED", "INCLUDED"] as const;
/** One of ELEMENT_STATES. */
export type ElementState = (typeof ELEMENT_STATES)[number];

/** An element as a bundle definition produces it: PRESENT with its content, or a marker state. */
export type ElementSource =
  | { readonly state: "PRESENT"; readonly content: JsonValue }
  | { readonly state: "ABSENT" | "UNVERSIONED" | "INCLUDED" };

/** An element as a manifest records it. */
export interface ElementRecord {
  readonly name: string;
  readonly state: ElementState;
  /** Lower-case hex SHA-256 of the element's preimage (`elementPreimage`). */
  readonly digest: string;
}

/**
 * The canonical JSON that element `id` hashes: `{"content":…,"element":"B4","state":"PRESENT"}` for
 * a PRESENT element, the marker `{"element":"B9","state":"ABSENT"}` for the others. The id is in
 * the preimage so equal content in two slots never shares a digest.
 */
export function elementPreimage(id: BundleElementId, source: ElementSource): string {
  if (source.state === "PRESENT")
    return canonicalJson({ content: source.content, element: id, state: "PRESENT" });
  return canonicalJson({ element: id, state: source.state });
}

/** The digest of element `id` from its source. */
export function elementDigest(id: BundleElementId, source: ElementSource): string {
  return sha256Hex(elementPreimage(id, source));
}

/** The manifest record of element `id`. */
export function elementRecord(id: BundleElementId, source: ElementSource): ElementRecord {
  return { name: elementName(id), state: source.state, digest: elementDigest(id, source) };
}
