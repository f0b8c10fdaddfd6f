import { request as httpRequest, type IncomingHttpHeaders } from "node:http";

/** A raw answer: status, every header (set-cookie as a list) and the body bytes. */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What the client sends: the request target as written, headers, an optional body. */
export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/**
 * A cookie jar for one actor: keeps the last value of each cookie the server set (an empty value or
 * `Max-Age=0` deletes it) and sends them back on every request. Paths and domains are not tracked:
 * every cookie of the demo is `Path=/` on one host.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** The `Cookie` header for the next request, or undefined when the jar is empty. */
  header(): string | undefined {
    if (this.cookies.size === 0) return undefined;
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** Takes the answer's `Set-Cookie` headers. */
  store(setCookies: readonly string[]): void {
    for (const line of setCookies) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (value === "" || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

/**
 * Sends one request with node:http, so the request target reaches the server exactly as written
 * (fetch would resolve dot segments and turn `\` into `/`). A fresh connection per request, so an
 * early answer (413 before the body is read) never disturbs the next one.
 */
export function send(port: number, req: RawRequest, jar?: CookieJar): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...req.headers };
  const cookie = jar?.header();
  if (cookie && headers.cookie === undefined) headers.cookie = cookie;
  if (req.body) headers["content-length"] = String(req.body.byteLength);
  return new Promise((resolve, reject) => {
    let answered = false;
    const r = httpRequest(
      { host: "127.0.0.1", port, method: req.method, path: req.path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          jar?.store(res.headers["set-cookie"] ?? []);
          answered = true;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        });
        res.on("error", reject);
      },
    );
    // A server that answers before reading the whole body may reset the socket: the answer counts.
    r.on("error", (e) => {
      if (!answered) reject(e);
    });
    r.end(req.body);
  });
}
