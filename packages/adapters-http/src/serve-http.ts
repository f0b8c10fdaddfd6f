import { createServer } from "node:http";
import { PlatformError } from "@keyward/core/errors";
import { type H3, serve } from "h3";
import { directListenerOf, type NodeListener } from "./node-listener.js";

/** Where and how to listen. */
export interface ServeHttpOptions {
  /** TCP port; 0 picks a free ephemeral port (read it back from the result). */
  port: number;
  /** Interface to bind (default `127.0.0.1`: not exposed to the network unless asked). */
  hostname?: string;
}

/** A listening server: its base URL (`http://localhost:PORT`), the bound port, and how to stop it. */
export interface HttpServerHandle {
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections and waits for in-flight requests; `force` also drops them. */
  close(force?: boolean): Promise<void>;
}

/**
 * Listens and resolves once bound. An app of createHttpApp is served by a Node `http` server over
 * its direct listener (`toNodeListener`: a plain GET never builds a web Request or Response); any
 * other h3 app by h3's `serve` (srvx), whose own banner and signal handling are off: the host owns
 * both. `close(force)` waits for in-flight requests, and with `force` drops open connections first.
 */
export async function serveHttp(app: H3, options: ServeHttpOptions): Promise<HttpServerHandle> {
  const direct = directListenerOf(app);
  const hostname = options.hostname ?? "127.0.0.1";
  const server = direct
    ? await listenNode(direct, options.port, hostname)
    : await listenSrvx(app, options.port, hostname);
  if (!Number.isInteger(server.port) || server.port <= 0) {
    await server.close(true);
    throw new PlatformError("CONFIGURATION_INVALID", `serveHttp: no bound port (${server.address})`);
  }
  return {
    url: `http://localhost:${server.port}`,
    port: server.port,
    close: (force = false) => server.close(force),
  };
}

/** A bound server before the checks: its port (NaN when unknown) and what it said its address was. */
interface BoundServer {
  port: number;
  address: string;
  close(force: boolean): Promise<void>;
}

async function listenNode(listener: NodeListener, port: number, host: string): Promise<BoundServer> {
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host, exclusive: true }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address !== null ? address.port : Number.NaN,
    address: `server.address()=${JSON.stringify(address)}`,
    close: (force) =>
      new Promise<void>((resolve, reject) => {
        if (force) server.closeAllConnections();
        if (!server.listening) return resolve();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * srvx exposes the bound address only as `server.url` (`http://127.0.0.1:PORT/`, from
 * `node.server.address()`) after `ready()`, so the port is read from there.
 */
async function listenSrvx(app: H3, port: number, hostname: string): Promise<BoundServer> {
  const server = serve(app, { port, hostname, silent: true, gracefulShutdown: false });
  await server.ready();
  return {
    port: server.url ? Number(new URL(server.url).port) : Number.NaN,
    address: `server.url=${String(server.url)}`,
    close: (force) => server.close(force),
  };
}
