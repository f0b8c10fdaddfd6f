import type { IncomingMessage, ServerResponse } from "node:http";
import type { IdGenerator } from "@keyward/core/ports";
import { HttpExchange, RequestPipeline } from "@keyward/core/web";
import { sendNodeResponse } from "srvx/node";
import { incomingCorrelationId } from "./correlation-id.js";
import { CORRELATION_ID_ATTRIBUTE } from "./exchange-attributes.js";
import {
  answerOf,
  type ExchangeAnswer,
  type ExchangeBindingOptions,
  forwardedClientOf,
} from "./exchange-binding.js";
import type { NodeListener } from "./node-listener.js";
import type { RequestObserver } from "./request-observer.js";

/**
 * srvx's own tests (its `FastURL`, which h3's `event.url` is on Node) for a path or query its URL
 * parser would rewrite: dot segments, a backslash, characters outside the URL code points. A request
 * that matches either takes the h3 path, so that its path is the one h3 hands over, byte for byte.
 */
const PATH_NEEDS_NORMALISING =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what sends a path to h3
  /(?:(?:^|\/)(?:\.|\.\.|%2e|%2e\.|\.%2e|%2e%2e)(?:\/|$))|[\\^#"<>{}`\x00-\x20\x7f-\uffff]/i;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what sends a query to h3
const QUERY_NEEDS_NORMALISING = /[#"'<>\x00-\x20\x7f-\uffff]/;
/** As exchange-binding's: the whitespace at either end of a header value (tab, LF, CR, space). */
const OUTER_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

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
export function nodeExchange(
  req: IncomingMessage,
  options: ExchangeBindingOptions,
): HttpExchange | undefined {
  const line = req.url;
  if (typeof line !== "string" || line.charCodeAt(0) !== 47 || req.httpVersionMajor !== 1) return undefined;
  const fields = req as IncomingMessage & { baseUrl?: unknown };
  if (fields.baseUrl !== undefined && fields.baseUrl !== "") return undefined;
  const q = line.indexOf("?");
  const path = q === -1 ? line : line.slice(0, q) || "/";
  const query = q === -1 ? "" : line.slice(q);
  // An escape in the path: h3 refuses a malformed one (400) and rewrites others (its canonical
  // pathname), so such a path takes the h3 path, as does one srvx's URL parser would rewrite.
  if (path.includes("%") || PATH_NEEDS_NORMALISING.test(path)) return undefined;
  if (query !== "" && QUERY_NEEDS_NORMALISING.test(query)) return undefined;
  // rawHeaderMap, inline (every request runs it): lower-case names, values trimmed as `Headers`
  // trims them, repeats joined with ", " (Cookie "; "), the last Set-Cookie kept. A body declared
  // (Content-Length or Transfer-Encoding) sends the request to the h3 path. Read from `rawHeaders`
  // alone: Node's `req.headers` is an object it builds on first access, which this path never needs.
  const raw = req.rawHeaders;
  const headers = new Map<string, string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (name === "content-length" || name === "transfer-encoding") return undefined;
    const text = raw[i + 1] as string;
    // EDGE_WHITESPACE's test, on the two end characters (the regex scans the whole value for its
    // `$` alternative: a bearer token's 600 characters on every request).
    const first = text.charCodeAt(0);
    const last = text.charCodeAt(text.length - 1);
    const value =
      first === 32 ||
      first === 9 ||
      first === 10 ||
      first === 13 ||
      last === 32 ||
      last === 9 ||
      last === 10 ||
      last === 13
        ? text.replace(OUTER_WHITESPACE, "")
        : text;
    const before = headers.get(name);
    if (before === undefined || name === "set-cookie") headers.set(name, value);
    else headers.set(name, `${before}${name === "cookie" ? "; " : ", "}${value}`);
  }
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

/** What createHttpApp's request handling is made of, shared by its h3 handler and its direct listener. */
export interface DirectParts {
  readonly binding: ExchangeBindingOptions;
  /** Where a request without a well-formed correlation id of its own gets one. */
  readonly ids: IdGenerator;
  readonly pipeline: RequestPipeline;
  readonly observer: RequestObserver | undefined;
  /** The error answer (after the ErrorTranslator family), as the h3 handler answers it. */
  answerError(
    error: unknown,
    method: string,
    path: string,
    id: string,
    headers?: Iterable<[string, string]>,
  ): Response;
}

/**
 * createHttpApp's Node listener: a request `nodeExchange` takes (a plain origin-form request without
 * a body, over HTTP/1) runs what the h3 handler runs (correlation id, request pipeline, answer,
 * access line and metrics), and its answer goes straight to Node's response; every other request,
 * and one whose exchange cannot be built, goes to `fallback` (srvx's handler over the h3 app), which
 * answers it as before. The answer is written as srvx writes a FastResponse (`HTTP/1.1 200 ` with an
 * empty reason phrase, the header list in order, a Content-Length for a body unless one is set, the
 * body), in one `writeHead` and one `end`: no web Request or Response, no header copy. A write that
 * throws (a socket already gone) ends the response as srvx does: a 500 when nothing was sent yet,
 * else destroyed. An error answer is written by srvx, as on the h3 path.
 */
export function directNodeListener(parts: DirectParts, fallback: NodeListener): NodeListener {
  return (req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    const startedAt = performance.now();
    let exchange: HttpExchange | undefined;
    try {
      exchange = nodeExchange(req, parts.binding);
    } catch {
      // The h3 path builds the same exchange and answers its refusal (an error answer, no exchange).
      exchange = undefined;
    }
    if (exchange === undefined) return fallback(req, res);
    // The caller's id when well-formed (X-Request-Id, X-Correlation-Id, traceparent), else a new one,
    // as createHttpApp's handle judges it (inline: incomingCorrelationId only when one is sent).
    const sent =
      exchange.header("x-request-id") ??
      exchange.header("x-correlation-id") ??
      exchange.header("traceparent");
    const correlationId =
      (sent === undefined ? undefined : incomingCorrelationId(exchangeHeaderReader(exchange))) ??
      parts.ids.id();
    exchange.attributes.set(CORRELATION_ID_ATTRIBUTE, correlationId);
    // `run` never throws; a pipeline that finished at once (DONE) is answered now, without a promise.
    const ran = parts.pipeline.run(exchange);
    if (ran === PIPELINE_DONE) return writeAnswer(parts, exchange, res, correlationId, startedAt);
    const running = exchange;
    return ran.then(
      () => writeAnswer(parts, running, res, correlationId, startedAt),
      (error: unknown) => answerFailure(parts, running, res, error, correlationId, startedAt),
    );
  };
}

/** What `RequestPipeline.run` answers when every step finished at once. */
const PIPELINE_DONE = RequestPipeline.DONE;

/**
 * The pipeline's answer in one `writeHead` and one `end` (a Content-Length for a body unless one is
 * set). An answer that cannot be written (a header value that is not one) is a failure answered by
 * `answerFailure`; a write that throws (a socket already gone) ends the response as srvx does: a 500
 * when nothing was sent yet, else destroyed.
 */
function writeAnswer(
  parts: DirectParts,
  exchange: HttpExchange,
  res: ServerResponse,
  correlationId: string,
  startedAt: number,
): void | Promise<void> {
  let answer: ExchangeAnswer;
  try {
    answer = answerOf(exchange, { "x-correlation-id": correlationId, "x-request-id": correlationId });
  } catch (error) {
    return answerFailure(parts, exchange, res, error, correlationId, startedAt);
  }
  const { headers, body, status } = answer;
  let sized = false;
  for (let i = 0; i < headers.length; i += 2) if (headers[i] === "content-length") sized = true;
  if (body !== null && !sized)
    headers.push(
      "content-length",
      String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength),
    );
  try {
    res.writeHead(status, "", headers);
    if (body === null) res.end();
    else res.end(body);
  } catch {
    if (res.headersSent) {
      if (!res.writableEnded) res.destroy();
    } else {
      res.statusCode = 500;
      res.statusMessage = "";
      res.end();
    }
  }
  parts.observer?.answered(exchange, status, startedAt, correlationId);
}

/** A pipeline that threw: the error answer, written by srvx, as on the h3 path. */
async function answerFailure(
  parts: DirectParts,
  exchange: HttpExchange,
  res: ServerResponse,
  error: unknown,
  correlationId: string,
  startedAt: number,
): Promise<void> {
  const headers = exchange.response.headers;
  const response = parts.answerError(error, exchange.method, exchange.rawPath, correlationId, headers);
  // Read before sending: srvx's response hands its state over to Node's as it is written.
  const status = response.status;
  await sendNodeResponse(res, response).catch(() => {
    if (!res.writableEnded) res.destroy();
  });
  parts.observer?.answered(exchange, status, startedAt, correlationId);
}

/** An exchange's request headers as incomingCorrelationId reads them (by lower-case name). */
function exchangeHeaderReader(exchange: HttpExchange): { get(name: string): string | undefined } {
  return { get: (name) => exchange.header(name) };
}
