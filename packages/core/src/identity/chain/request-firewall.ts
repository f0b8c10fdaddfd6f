import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";

// Paths that could make two matchers disagree about what is being asked for (Spring's
// StrictHttpFirewall): encoded slashes, backslashes and dots, dot segments, empty segments,
// matrix parameters, control characters. One alternation (one regex test per path, not nine); the
// case-insensitive flag only matters to the escapes, the other alternatives hold no letter.
const REJECTED = new RegExp(
  [/\/\//, /\/\.\.?(\/|$)/, /%2f/, /%5c/, /%2e/, /%25/, /\\/, /;/, /%0[0-9a-f]|%1[0-9a-f]|%7f/]
    .map((r) => r.source)
    .join("|"),
  "i",
);

/** Longest path accepted; longer ones are refused before any matcher sees them. */
export const MAX_PATH_LENGTH = 2048;

/**
 * Refuses requests whose path is ambiguous or hostile, before any chain is chosen: 400 REQUEST_REJECTED.
 * Security matchers compare paths literally, so `//admin` or `/a/../admin` must never reach them. The
 * canonical path and the received one are both judged (isPathAllowed, inline: it runs on every request).
 */
export function assertPathAllowed(exchange: HttpExchange): void {
  const path = exchange.path;
  const raw = exchange.rawPath;
  if (
    path.length === 0 ||
    path.charCodeAt(0) !== SLASH ||
    path.length > MAX_PATH_LENGTH ||
    REJECTED.test(path) ||
    (raw !== path &&
      (raw.length === 0 || raw.charCodeAt(0) !== SLASH || raw.length > MAX_PATH_LENGTH || REJECTED.test(raw)))
  ) {
    throw new PlatformError("REQUEST_REJECTED", "The request path was rejected");
  }
}

const SLASH = 47;

/** True when the firewall lets a path through (the policy simulator asks before it explains one). */
export function isPathAllowed(path: string): boolean {
  return (
    path.length > 0 && path.charCodeAt(0) === SLASH && path.length <= MAX_PATH_LENGTH && !REJECTED.test(path)
  );
}

/** True when the text holds a C0 control character or DEL. */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}
