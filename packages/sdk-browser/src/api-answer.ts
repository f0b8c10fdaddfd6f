// How the ApiClient reads URLs and answers: same origin only, JSON bodies, platform codes.
import { PlatformMfaError } from "./platform-mfa-error.js";
import type { AuthenticationResult } from "./types.js";

/** The URL resolved against the page; a URL of another origin (or not http/https) is refused. */
export function sameOriginUrl(url: string): string {
  const here = globalThis.location?.href;
  if (here === undefined) return url;
  let resolved: URL;
  try {
    resolved = new URL(url, here);
  } catch {
    // Not echoed: a URL may carry a token in its query.
    throw new PlatformMfaError("INVALID_URL", "Not a URL");
  }
  if (resolved.origin !== new URL(here).origin) {
    throw new PlatformMfaError("INVALID_URL", "The SDK only sends requests to the page's own origin");
  }
  return resolved.href;
}

/** The JSON body of an answer; `{}` when empty; an error for a non-JSON success (an HTML page). */
export async function parseAnswer(response: Response): Promise<AuthenticationResult> {
  const text = await response.text();
  if (text.trim() === "") return {};
  const type = response.headers.get("content-type") ?? "";
  if (/\bjson\b/i.test(type)) {
    try {
      const value = JSON.parse(text) as unknown;
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        return value as AuthenticationResult;
      }
      return { value } as AuthenticationResult;
    } catch (error) {
      throw new PlatformMfaError(
        "MALFORMED_RESPONSE",
        "The server answered malformed JSON",
        response.status,
        {},
        error,
      );
    }
  }
  if (response.ok) {
    throw new PlatformMfaError("UNEXPECTED_RESPONSE", "The server did not answer JSON", response.status);
  }
  return {};
}

/** `value` when it is a non-empty string, else `fallback`. */
export function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" && value ? value : fallback;
}
