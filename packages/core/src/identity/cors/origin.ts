import { PlatformError } from "../../kernel/platform-error.js";

/**
 * The canonical form of an `Origin` request header (scheme and host lower-cased), or undefined when it
 * is not one serialized origin: control characters (CR/LF), spaces, commas (several origins), a path,
 * a query or user info all make it malformed. `null` stays `null` (opaque origins: sandboxed frames,
 * files, redirects), which only a literal `"null"` in the configuration allows.
 */
export function canonicalRequestOrigin(header: string): string | undefined {
  if (!/^[\x21-\x7e]+$/.test(header)) return undefined;
  if (header === "null") return "null";
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#@,\\]+$/i.test(header)) return undefined;
  return header.toLowerCase();
}

/**
 * The canonical form of a configured allowed origin: `https://Example.com:443/` becomes
 * `https://example.com`. Only http and https origins (or the literal `null`) are accepted; anything
 * with a path, query, fragment, user info or a wildcard host is a configuration error, so nobody
 * configures a URL believing it restricts paths, or `*.example.com` believing it matches subdomains.
 */
export function canonicalConfiguredOrigin(origin: string): string {
  if (origin === "null") return "null";
  let url: URL | undefined;
  try {
    url = /[\p{Cc}\s]/u.test(origin) ? undefined : new URL(origin);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.username !== "" ||
    url.password !== "" ||
    (url.pathname !== "/" && url.pathname !== "") ||
    url.search !== "" ||
    url.hash !== "" ||
    !/^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/.test(url.hostname) ||
    /[?#]/.test(origin) ||
    !/^[a-z][a-z0-9+.-]*:\/\/[^/?#@\\]+\/?$/i.test(origin)
  ) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `CORS allowed origin '${origin}' is not an origin (scheme://host[:port])`,
      { details: { origin } },
    );
  }
  return url.origin;
}
