/** Hex digits of a content hash in a file name (`platform-mfa-sdk.<12 hex>.js`): 48 bits of sha-256. */
export const CONTENT_HASH_HEX_LENGTH = 12;

/** `Cache-Control` of a content-hashed file: its URL never serves other bytes, so browsers keep it a year. */
export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable";

/** `Cache-Control` of every other file: browsers revalidate each use with the ETag (304 when unchanged). */
export const REVALIDATE_CACHE_CONTROL = "no-cache";

const HASHED_NAME = new RegExp(`^.+\\.([0-9a-f]{${CONTENT_HASH_HEX_LENGTH}})\\.[A-Za-z0-9]+$`);

/**
 * The content hash a file name carries (`name.<12 lowercase hex>.ext`), if any. The hash must be the
 * first 12 hex digits of the sha-256 of the bytes (see {@link cacheControlFor}).
 */
export function contentHashOf(fileName: string): string | undefined {
  return HASHED_NAME.exec(fileName)?.[1];
}

/**
 * The `Cache-Control` for a file: immutable for a content-hashed name whose hash really is the
 * prefix of the file's sha-256 (so a mistaken or stale name can never be cached for a year),
 * `no-cache` for everything else (fixed URLs such as `/js/platform-mfa-sdk.js`).
 */
export function cacheControlFor(fileName: string, sha256Hex: string): string {
  const hash = contentHashOf(fileName);
  return hash !== undefined && sha256Hex.startsWith(hash)
    ? IMMUTABLE_CACHE_CONTROL
    : REVALIDATE_CACHE_CONTROL;
}
