/**
 * True for a path on the page's own origin (`/account`, `/a?b#c`): it starts with one `/`, has no
 * backslash, whitespace or control character (browsers read `/\evil.example` and `/ /x` loosely), and
 * resolves to the page's origin. Absolute URLs, scheme-relative `//host` and `javascript:` are refused.
 */
export function isLocalUrl(url: unknown): url is string {
  if (typeof url !== "string" || !url.startsWith("/") || url.startsWith("//")) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\\\s\u0000-\u001f\u007f]/.test(url)) return false;
  const here = globalThis.location?.href;
  if (here === undefined) return true;
  try {
    return new URL(url, here).origin === new URL(here).origin;
  } catch {
    return false;
  }
}

/** Navigates to a local URL; false (and no navigation) for anything else. */
export function redirectLocally(url: unknown): boolean {
  if (!isLocalUrl(url)) return false;
  globalThis.location.assign(url);
  return true;
}
