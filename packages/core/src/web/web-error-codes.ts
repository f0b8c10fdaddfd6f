import type { ErrorCodesOf, ErrorCodeTable } from "../kernel/error-code-table.js";
// A module throws the codes of the modules below it too: loading a table loads theirs.
import "../kernel/kernel-error-codes.js";

/**
 * The web module's error codes: what is wrong with the shape of an HTTP request, whichever binding
 * received it (h3 today, a host's own binding tomorrow).
 */
export const WEB_ERROR_CODES = {
  BAD_REQUEST: {
    status: 400,
    meaning: "The HTTP binding could not read the request (a malformed URL or header).",
    remedy: "Send a well-formed HTTP request.",
  },
  REQUEST_REJECTED: {
    status: 400,
    meaning:
      "The request firewall refused the path: `//`, dot segments, encoded `/` `\\` `.` `%`, `;` or control characters.",
    remedy: "Request the canonical path, without those sequences.",
  },
  MALFORMED_JSON: {
    status: 400,
    meaning: "The body was declared JSON and does not parse.",
    remedy: "Send valid JSON, or the form encoding the endpoint also accepts.",
  },
  MALFORMED_BODY: {
    status: 400,
    meaning:
      "The body parses but has the wrong shape: not an object, nested deeper than 32 levels, or not UTF-8.",
    remedy: "Send a UTF-8 JSON object no deeper than 32 levels.",
  },
  MISSING_PARAMETER: {
    status: 400,
    meaning: "A required request parameter is absent.",
    remedy: "Add the parameter the message names.",
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    meaning: "The body's Content-Type is not one the endpoint reads; `contentType` echoes it.",
    remedy: "Send `application/json` or `application/x-www-form-urlencoded`, as the message says.",
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    meaning: "The body is larger than the endpoint's limit (`limit`, in bytes); the connection is closed.",
    remedy: "Send a smaller body on a new connection.",
  },
  CLIENT_ABORTED: {
    status: 400,
    meaning: "The client closed the connection before the body was complete; the answer is never delivered.",
    remedy: "Nothing on the server's side; the client may send the request again.",
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    meaning: "The path exists but not for this HTTP method; the `Allow` header lists the methods it takes.",
    remedy: "Use one of the methods in `Allow`.",
  },
} as const satisfies ErrorCodeTable;

/** The details of the web codes that carry any. */
export type WebErrorDetails = {
  UNSUPPORTED_MEDIA_TYPE: { contentType: string | null };
  PAYLOAD_TOO_LARGE: { limit: number };
  METHOD_NOT_ALLOWED: { allow: readonly string[] };
};

/** The web codes mapped to their details types (merged into PlatformErrorCodes). */
export type WebErrorCodes = ErrorCodesOf<typeof WEB_ERROR_CODES, WebErrorDetails>;

declare module "../kernel/error-code-table.js" {
  interface PlatformErrorCodes extends WebErrorCodes {}
}
