import { PlatformError } from "@keyward/core/errors";
import { type H3, serve } from "h3";

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
 * Listens with h3's `serve` (srvx on Node) and resolves once bound. srvx exposes the bound address
 * only as `server.url` (`http://127.0.0.1:PORT/`, from `node.server.address()`) after `ready()`, so
 * the port is read from there. srvx's own banner and signal handling are off: the host owns both.
 */
export async function serveHttp(app: H3, options: ServeHttpOptions): Promise<HttpServerHandle> {
  const server = serve(app, {
    port: options.port,
    hostname: options.hostname ?? "127.0.0.1",
    silent: true,
    gracefulShutdown: false,
  });
  await server.ready();
  const bound = server.url ? Number(new URL(server.url).port) : Number.NaN;
  if (!Number.isInteger(bound) || bound <= 0) {
    await server.close(true);
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `serveHttp: no bound port (server.url=${String(server.url)})`,
    );
  }
  return {
    url: `http://localhost:${bound}`,
    port: bound,
    close: (force = false) => server.close(force),
  };
}
