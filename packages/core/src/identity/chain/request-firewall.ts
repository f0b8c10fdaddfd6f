import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";

// Paths that could make two matchers disagree about what is being asked for (Spring's
// StrictHttpFirewall): encoded slashes, backslashes and dots, dot segments, empty segments,
// matrix parameters, control characters.
const REJECTED = [
  /\/\//,
  /\/\.\.?(\/|$)/,
  /%2f/i,
  /%5c/i,
  /%2e/i,
  /%25/i,
  /\\/,
  /;/,
  /%0[0-9a-f]|%1[0-9a-f]|%7f/i,
];

/** Longest path accepted; longer ones are refused before any matcher sees them. */
export const MAX_PATH_LENGTH = 2048;

/**
 * Refuses requests whose path is ambiguous or hostile, before any chain is chosen: 400 REQUEST_REJECTED.
 * Security matchers compare paths literally, so `//admin` or `/a/../admin` must never reach them.
 */
export function assertPathAllowed(exchange: HttpExchange): void {
  assertAllowed(exchange.path);
  if (exchange.rawPath !== exchange.path) assertAllowed(exchange.rawPath);
}

function assertAllowed(path: string): void {
  if (!isPathAllowed(path)) throw new PlatformError("REQUEST_REJECTED", "The request path was rejected");
}

/** True when the firewall lets a path through (the policy simulator asks before it explains one). */
export function isPathAllowed(path: string): boolean {
  return (
    path.length > 0 &&
    path[0] === "/" &&
    path.length <= MAX_PATH_LENGTH &&
    !REJECTED.some((r) => r.test(path))
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
