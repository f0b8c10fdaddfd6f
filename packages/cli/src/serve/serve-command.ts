import { serveHttp } from "@keyward/adapters-http";
import type { Platform } from "@keyward/core";
import { loadHostConfig } from "../host-config.js";
import { type RunningServer, runningServer } from "../running-server.js";
import { setupLines, setupTokenAtStart } from "./setup-announcement.js";
import { buildServePlatform, listeningOn } from "./serve-platform.js";
import { serveStore } from "./serve-store.js";

/** What `platform serve` needs. */
export interface ServeOptions {
  /** Path of the host configuration module (required: serve runs a host, not the demo). */
  config: string;
  /** TCP port; 0 picks a free one; default 8080. */
  port?: number | undefined;
  /** Interface to bind (default 127.0.0.1). */
  host?: string | undefined;
}

/**
 * `platform serve`: loads the host configuration, starts its platform on the store it names (before
 * anything listens: a failed start leaves no server), makes or finds the first administrator's setup
 * token when the user store is empty, listens, then prints where, which store and, when this start
 * made it, the token (once, on `out`, the console; never to the log).
 */
export async function serveCommand(
  args: ServeOptions,
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  env: Record<string, string | undefined> = process.env,
): Promise<RunningServer> {
  const store = serveStore(await loadHostConfig(args.config), env);
  const served = await buildServePlatform(store.host, env);
  let server: Awaited<ReturnType<typeof serveHttp>> | undefined;
  let issue: Awaited<ReturnType<typeof setupTokenAtStart>>;
  try {
    issue = await setupTokenAtStart(served.platform);
    server = await serveHttp(served.app, { port: args.port ?? 8080, hostname: args.host ?? "127.0.0.1" });
    listeningOn(served.platform, server.port);
  } catch (error) {
    await server?.close(true);
    await served.platform.stop();
    throw error;
  }
  out(
    [
      `Platform listening on ${args.host ?? "127.0.0.1"} port ${server.port} (${server.url})`,
      store.line,
      `  config: ${args.config}`,
      ...setupLines(issue, publicUrlOf(served.platform) ?? server.url),
    ].join("\n"),
  );
  return runningServer(server, served);
}

/** The configured public URL (`platform.server.public-url`), where the operator opens `/setup`; undefined when unset. */
function publicUrlOf(platform: Platform): string | undefined {
  const value = platform.properties.list().find((p) => p.key === "platform.server.public-url")?.value;
  return typeof value === "string" && value !== "" ? value.replace(/\/+$/, "") : undefined;
}
