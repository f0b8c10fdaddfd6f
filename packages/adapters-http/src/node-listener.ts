import type { IncomingMessage, ServerResponse } from "node:http";
import type { H3 } from "h3";
import { toNodeHandler } from "srvx/node";

/**
 * A Node request listener: `http.createServer(listener)`, or an Express / Connect middleware that
 * always answers (it never calls `next`).
 */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/**
 * The h3 app of `createHttpApp` as a Node request listener (srvx's `toNodeHandler` over `app.fetch`,
 * what `serveHttp` runs), so a host mounts the platform in its own `http` server or Express app
 * without depending on h3 or srvx itself. srvx is given no `trustProxy`: the socket peer reaches the
 * binding unchanged, and `platform.http.trusted-proxies` alone decides whether X-Forwarded-For counts.
 * Mount it at the root and before any body parser (docs/mounting.md): under an Express mount path
 * and with a body already read, requests fail with CONFIGURATION_INVALID rather than half-work.
 */
export function toNodeListener(app: H3): NodeListener {
  return toNodeHandler(app.fetch) as NodeListener;
}
