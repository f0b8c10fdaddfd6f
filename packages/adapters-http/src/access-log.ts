import { defineProperty, prop } from "@keyward/core";

/** Whether the binding writes one access line per request (default true). */
export const HTTP_ACCESS_LOG_ENABLED = defineProperty({
  key: "platform.http.access-log.enabled",
  schema: prop.bool(),
  default: true,
  description:
    "One info line per request (method, canonical path without query, route, status, duration, correlation id, user id); false writes none.",
});

/** The message of every access line, so a log pipeline can pick them out. */
export const ACCESS_LOG_MESSAGE = "http.access";

/** Longest path an access line carries; a longer one is cut and marked with a trailing `…`. */
export const MAX_LOGGED_PATH = 256;

/**
 * The fields of one access line: `method`, `path` (the canonical path: never the query string,
 * where secrets travel; absent when the request could not be parsed), `route` (the route table's
 * name; absent for none), `status`, `durationMs`, `correlationId`, and `userId` when the request
 * was authenticated or signed in. Never a header, a cookie, a token or a body.
 */
export interface AccessLine {
  method: string;
  path: string | undefined;
  route: string | undefined;
  status: number;
  durationMs: number;
  correlationId: string;
  userId: string | undefined;
}

/** The path as an access line carries it: at most 256 characters (JSON escapes the rest). */
export function loggedPath(path: string): string {
  return path.length <= MAX_LOGGED_PATH ? path : `${path.slice(0, MAX_LOGGED_PATH)}…`;
}

/** A request method as logged: a plain upper-case token of at most 16 letters, else `-`. */
export function loggedMethod(method: string): string {
  if (method.length === 0 || method.length > 16) return "-";
  for (let i = 0; i < method.length; i++) {
    const c = method.charCodeAt(i);
    if (c < 65 || c > 90) return "-";
  }
  return method;
}
