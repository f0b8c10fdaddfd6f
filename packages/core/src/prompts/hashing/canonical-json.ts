import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

/** A JSON value as the hash reads it: no `undefined`, no functions, finite numbers only. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/**
 * The RFC 8785 (JCS) canonical form of `value`: keys sorted by UTF-16 code units, no white space,
 * ECMAScript number and string serialisation. Two implementations that agree on the value agree on
 * these bytes, which is what lets another implementation reproduce a bundle hash.
 */
export function canonicalJson(value: JsonValue): string {
  const text = canonicalize(value);
  // canonicalize drops undefined silently; a hashed value never holds one, so that is a bug here.
  if (text === undefined) throw new TypeError("canonicalJson: the value has no JSON form");
  return text;
}

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** Lower-case hex of the UTF-8 bytes of `text` (the form the test vectors publish). */
export function utf8Hex(text: string): string {
  return Buffer.from(text, "utf8").toString("hex");
}
