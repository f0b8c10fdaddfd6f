import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpExchange } from "@keyward/core/web";
import {
  type ExchangeAnswer,
  type ExchangeBindingOptions,
  forwardedClientOf,
  rawHeaderMap,
} from "./exchange-binding.js";

/**
 * srvx's own tests (its `FastURL`, which h3's `event.url` is on Node) for a path or query its URL
 * parser would rewrite: dot segments, a backslash, characters outside the URL code points. A request
 * that matches either takes the h3 path, so that its path is the one h3 hands over, byte for byte.
 */
const PATH_NEEDS_NORMALISING =
  /(?:(?:^|\/)(?:\.|\.\.|%2e|%2e\.|\.%2e|%2e%2e)(?:\/|$))|[\\^#"<>{}`\x00-\x20\x7f-\uffff]/i;
const QUERY_NEEDS_NORMALISING = /[#"'<>\x00-\x20\x7f-\uffff]/;

/**
 * The exchange of a Node request the platform answers without h3 (`directNodeListener`), or
 * undefined when the request takes the h3 path instead: a request-target that is not a plain
 * origin-form path (absolute form, `*`, a path with an escape or one srvx's URL parser would
 * normalise: h3 refuses or rewrites those), HTTP/2, an
 * Express mount path (refused there, docs/mounting.md), or a body (Content-Length or
 * Transfer-Encoding: the h3 path reads it, with its limit). What it builds is what `toExchange`
 * builds from the same request through h3: the same path and query (h3's `event.url` keeps them
 * as sent when they need no normalising), raw path, header map, client and scheme (TLS socket, or
 * what a trusted proxy forwarded).
 */
export function nodeExchange(req: IncomingMessage, options: ExchangeBindingOptions): HttpExchange | undefined {
  const line = req.url;
  if (typeof line !== "string" || line.charCodeAt(0) !== 47 || req.httpVersionMajor !== 1) return undefined;
  const fields = req as IncomingMessage & { baseUrl?: unknown };
  if (fields.baseUrl !== undefined && fields.baseUrl !== "") return undefined;
  const declared = req.headers;
  if (declared["content-length"] !== undefined || declared["transfer-encoding"] !== undefined) return undefined;
  const q = line.indexOf("?");
  const path = q === -1 ? line : line.slice(0, q) || "/";
  const query = q === -1 ? "" : line.slice(q);
  // An escape in the path: h3 refuses a malformed one (400) and rewrites others (its canonical
  // pathname), so such a path takes the h3 path, as does one srvx's URL parser would rewrite.
  if (path.includes("%") || PATH_NEEDS_NORMALISING.test(path)) return undefined;
  if (query !== "" && QUERY_NEEDS_NORMALISING.test(query)) return undefined;
  const headers = rawHeaderMap(req.rawHeaders);
  const peer = req.socket?.remoteAddress ?? "";
  // forwardedClientOf's own first test, here: without a trusted proxy it is not called.
  const client =
    options.trustedProxies === undefined || options.trustedProxies.kind === "none" || peer === ""
      ? undefined
      : forwardedClientOf(peer, headers, options);
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  return new HttpExchange({
    method: req.method || "GET",
    url: path + query,
    rawPath: q === -1 ? line : line.slice(0, q),
    headers,
    remoteAddress: client?.address ?? peer,
    secure: (client?.protocol ?? (encrypted ? "https" : "http")) === "https",
    // No body (the request declared none): the exchange reads it as "".
    errors: options.errors,
  });
}

/**
 * Writes an answer to Node's response as srvx writes a FastResponse (`HTTP/1.1 200 ` with an empty
 * reason phrase, the header pairs in order, a Content-Length for a body unless one is set, the body),
 * in one `writeHead` and one `end`: no web Response, no header copy (the answer's list gains the
 * Content-Length). A write that throws (a socket
 * already gone) ends the response as srvx does: a 500 when nothing was sent yet, else destroyed.
 */
export function writeNodeAnswer(res: ServerResponse, answer: ExchangeAnswer): void {
  const { headers, body } = answer;
  let sized = false;
  for (let i = 0; i < headers.length; i += 2) if (headers[i] === "content-length") sized = true;
  if (body !== null && !sized)
    headers.push("content-length", String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength));
  try {
    res.writeHead(answer.status, "", headers);
    if (body === null) res.end();
    else res.end(body);
  } catch {
    if (res.writableEnded) return;
    if (res.headersSent) res.destroy();
    else {
      res.statusCode = 500;
      res.statusMessage = "";
      res.end();
    }
  }
}
