import "reflect-metadata";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { startDemoServer } from "../login/demo-server.js";

/** The part of h3 the bare server uses (h3 is a dependency of the HTTP adapter, not of the root). */
interface BareH3 {
  H3: new (options: { silent: boolean }) => { get(path: string, handler: () => unknown): void };
  serve(
    app: unknown,
    options: { port: number; hostname: string; silent: boolean; gracefulShutdown: boolean },
  ): { ready(): Promise<unknown>; url?: string; close(force?: boolean): Promise<void> };
}

/** The very h3 the HTTP adapter runs on, resolved from its package. */
async function adapterH3(): Promise<BareH3> {
  const adapter = new URL("../../../packages/adapters-http/package.json", import.meta.url);
  return (await import(pathToFileURL(createRequire(adapter).resolve("h3")).href)) as BareH3;
}

/**
 * One server of the HTTP bench, in its own process (so that one server's process-wide costs, such
 * as async-hooks promise tracking, never touch the other): `bare` is an h3 app with one JSON route,
 * `demo` is `pnpm start`'s demo platform. It tells its parent the port over IPC, closes and exits on
 * "stop", answers "cpu" with its CPU time so far (µs), and records a V8 CPU profile (the format `node --cpu-prof` writes) between "profile-start"
 * and `{ profileTo: file }`, so that start-up is not in it.
 */
async function main(kind: string): Promise<void> {
  let port: number;
  let close: () => Promise<void>;
  if (kind === "bare") {
    const { H3, serve } = await adapterH3();
    const app = new H3({ silent: true });
    app.get("/bare", () => ({ status: "UP" }));
    const server = serve(app, { port: 0, hostname: "127.0.0.1", silent: true, gracefulShutdown: false });
    await server.ready();
    port = Number(new URL(server.url ?? "").port);
    close = () => server.close(true);
  } else if (kind === "demo") {
    const demo = await startDemoServer();
    port = Number(new URL(demo.baseUrl).port);
    close = () => demo.close();
  } else {
    throw new Error(`unknown server kind ${kind}`);
  }
  const profiler = new Session();
  process.on("message", (message: unknown) => {
    if (message === "stop") void close().finally(() => process.exit(0));
    else if (message === "cpu") {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpu: user + system });
    } else if (message === "profile-start") {
      profiler.connect();
      profiler.post("Profiler.enable", () =>
        profiler.post("Profiler.start", () => process.send?.({ profiling: true })),
      );
    } else if (typeof message === "object" && message !== null && "profileTo" in message) {
      const file = String(message.profileTo);
      profiler.post("Profiler.stop", (error, result) => {
        if (!error) writeFileSync(file, JSON.stringify(result.profile));
        process.send?.({ profiled: error ? String(error) : file });
      });
    }
  });
  process.send?.({ port });
}

main(process.argv[2] ?? "").catch((error: unknown) => {
  process.stderr.write(`server-child: ${String(error)}\n`);
  process.exit(1);
});
