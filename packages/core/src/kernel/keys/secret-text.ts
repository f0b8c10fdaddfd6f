import { PlatformError } from "../platform-error.js";

/** Prefix that marks a secret property as base64url-encoded bytes rather than UTF-8 text. */
export const BASE64URL_SECRET_PREFIX = "base64url:";

/**
 * The bytes of a secret property: `base64url:<data>` is decoded as base64url, any other text is taken
 * as its UTF-8 bytes. PlatformError `CONFIGURATION_INVALID` (naming the property, never the value)
 * when the base64url is malformed or the secret is shorter than `minBytes`.
 */
export function secretBytesOf(text: string, propertyKey: string, minBytes: number): Uint8Array {
  let bytes: Uint8Array;
  if (text.startsWith(BASE64URL_SECRET_PREFIX)) {
    const encoded = text.slice(BASE64URL_SECRET_PREFIX.length);
    if (!/^[A-Za-z0-9_-]*$/.test(encoded)) {
      throw invalid(`${propertyKey} after ${BASE64URL_SECRET_PREFIX} is not base64url`, propertyKey);
    }
    bytes = new Uint8Array(Buffer.from(encoded, "base64url"));
  } else {
    bytes = new TextEncoder().encode(text);
  }
  if (bytes.length < minBytes) {
    throw invalid(`${propertyKey} must be at least ${minBytes} bytes (it has ${bytes.length})`, propertyKey);
  }
  return bytes;
}

function invalid(message: string, key: string): PlatformError {
  return new PlatformError("CONFIGURATION_INVALID", message, { details: { key } });
}
