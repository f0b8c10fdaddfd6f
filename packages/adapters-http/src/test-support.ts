// Test-only helpers (not exported from the package): a started platform served on an ephemeral port.
import { connect } from "node:net";
import { createPlatform, type Platform } from "@keyward/core";
import { type LogFields, Logger } from "@keyward/core/ports";
import { createHttpApp, type CreateHttpAppOptions, type HttpApp } from "./create-http-app.js";
import { httpPlugin } from "./http-properties.js";
import { type HttpServerHandle, serveHttp } from "./serve-http.js";

/** One captured log entry. */
export interface CapturedLog {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  fields: LogFields;
  /** The entry as the one JSON line a JSON logger would write. */
  line: string;
}

/** A Logger that keeps what it is given. */
export class CapturingLogger implements Logger {
  readonly entries: CapturedLog[] = [];
  debug(message: string, fields: LogFields = {}): void {
    this.push("debug", message, fields);
  }
  info(message: string, fields: LogFields = {}): void {
    this.push("info", message, fields);
  }
  warn(message: string, fields: LogFields = {}): void {
    this.push("warn", message, fields);
  }
  error(message: string, fields: LogFields = {}): void {
    this.push("error", message, fields);
  }
  private push(level: CapturedLog["level"], message: string, fields: LogFields): void {
    this.entries.push({ level, message, fields, line: JSON.stringify({ level, message, ...fields }) });
  }
}

/** A served test platform. */
export interface TestServer extends HttpApp {
  platform: Platform;
  server: HttpServerHandle;
  logger: CapturingLogger;
  /** `fetch` against the server, with a path. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Creates and starts a platform with httpPlugin, lets `setup` add routes, and serves it on port 0. */
export async function startTestServer(
  setup: (app: HttpApp) => void = () => {},
  options: {
    properties?: Record<string, unknown>;
    app?: Omit<CreateHttpAppOptions, "platform">;
    start?: boolean;
  } = {},
): Promise<TestServer> {
  const logger = new CapturingLogger();
  const platform = createPlatform({
    plugins: [httpPlugin],
    env: {},
    properties: options.properties,
    register: (c) => c.registerInstance(Logger, logger),
  });
  if (options.start !== false) await platform.start();
  const http = createHttpApp({ platform, ...options.app });
  setup(http);
  const server = await serveHttp(http.app, { port: 0 });
  return {
    ...http,
    platform,
    server,
    logger,
    fetch: (path, init) => fetch(`${server.url}${path}`, init),
    close: async () => {
      await server.close(true);
      await platform.stop();
    },
  };
}

/** The answer to a raw request: status code, headers (lower-case) and body text. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes exactly as given over a fresh TCP connection (for request lines fetch would
 * normalise: `..`, backslashes, NUL, invalid UTF-8) and reads the whole answer.
 */
export function rawRequest(port: number, request: string | Uint8Array): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    const chunks: Buffer[] = [];
    socket.on("data", (d) => chunks.push(d));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const split = text.indexOf("\r\n\r\n");
      const head = split === -1 ? text : text.slice(0, split);
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body = split === -1 ? "" : text.slice(split + 4);
      if (headers["transfer-encoding"] === "chunked") body = dechunk(body);
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body });
    });
    // write, not end: a half-closed client makes Node abort the in-flight request.
    socket.write(typeof request === "string" ? Buffer.from(request, "latin1") : request);
  });
}

function dechunk(text: string): string {
  let out = "";
  let rest = text;
  for (;;) {
    const eol = rest.indexOf("\r\n");
    if (eol === -1) return out;
    const size = Number.parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

/** A GET request line and headers for rawRequest, closing the connection afterwards. */
export function rawGet(path: string, headers: Record<string, string> = {}): string {
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  return `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${extra}\r\n`;
}
