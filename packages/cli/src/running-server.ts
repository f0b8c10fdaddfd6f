import type { HttpServerHandle } from "@keyward/adapters-http";
import type { Platform } from "@keyward/core";

/** How a running server stops: wait up to `graceMs` for in-flight requests (or until `force` settles). */
export interface CloseOptions {
  graceMs?: number;
  force?: Promise<unknown>;
}

/** A running server (`platform start`'s demo or `platform serve`'s host). */
export interface RunningServer {
  url: string;
  port: number;
  /**
   * Stops accepting connections, lets in-flight requests finish (at most `graceMs`, default 10 s,
   * or until `force` settles), drops what is left, then stops the platform (its stores close).
   */
  close(options?: CloseOptions): Promise<void>;
}

/** The graceful shutdown both commands share, over a listening server and its started platform. */
export function runningServer(
  server: HttpServerHandle,
  built: { platform: Platform; readiness: { beginShutdown(): void } },
): RunningServer {
  return {
    url: server.url,
    port: server.port,
    async close(options = {}) {
      // From now on `/health/ready` answers 503 shutting-down to whoever still asks.
      built.readiness.beginShutdown();
      const grace = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.graceMs ?? 10_000);
        timer.unref();
        options.force?.then(
          () => resolve(),
          () => resolve(),
        );
      });
      const graceful = server.close(false);
      const finished = await Promise.race([graceful.then(() => true), grace.then(() => false)]);
      if (!finished) await server.close(true);
      await built.platform.stop();
    },
  };
}
