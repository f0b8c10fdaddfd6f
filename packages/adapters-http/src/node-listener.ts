import type { IncomingMessage, ServerResponse } from "node:http";
import type { H3 } from "h3";
import { toNodeHandler } from "srvx/node";

/**
 * A Node request listener: `http.createServer(listener)`, or an Express / Connect middleware that
 * always answers (it never calls `next`).
 */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** The direct listener of each app createHttpApp made (see `directNodeListener`). */
const DIRECT_LISTENERS = new WeakMap<H3, NodeListener>();

/** Records the listener that answers an app's requests straight from Node (createHttpApp calls it). */
export function setDirectListener(app: H3, listener: NodeListener): void {
  DIRECT_LISTENERS.set(app, listener);
}

/** The listener that answers an app's requests straight from Node, when createHttpApp made the app. */
export function directListenerOf(app: H3): NodeListener | undefined {
  return DIRECT_LISTENERS.get(app);
}

/**
 * The h3 app of `createHttpApp` as a Node request listener, so a host mounts the platform in its
 * own `http` server or Express app without depending on h3 or srvx itself. For an app of
 * createHttpApp it is the app's direct listener (a plain GET is answered from Node's request into
 * Node's response; anything else goes through srvx's `toNodeHandler` over `app.fetch`, what it was
 * for any app before); for another h3 app, srvx's `toNodeHandler`. srvx is given no `trustProxy`: the
 * socket peer reaches the binding unchanged, and `platform.http.trusted-proxies` alone decides
 * whether X-Forwarded-For counts. Mount it at the root and before any body parser
 * (docs/mounting.md): under an Express mount path and with a body already read, requests fail with
 * CONFIGURATION_INVALID rather than half-work.
 */
export function toNodeListener(app: H3): NodeListener {
  return DIRECT_LISTENERS.get(app) ?? (toNodeHandler(app.fetch) as NodeListener);
}
