import { serveHttp } from "@keyward/adapters-http";
import { resolve } from "node:path";
import { isPlatformError, PlatformError } from "@keyward/core/errors";
import { type Platform, ServerAddress } from "@keyward/core";
import { OTT_OUTBOX_FILE } from "@keyward/core/identity";
import { buildDemoPlatform } from "./demo-platform.js";
import { DEMO_USERS } from "./demo-security.js";
import { DEMO_KEK_FILE, type DemoStore, demoStore } from "./demo-store.js";
import { loadHostConfig } from "./host-config.js";
import { type RunningServer, runningServer } from "./running-server.js";

/** What `platform start` needs: where to listen and the host configuration module, if any. */
export interface StartOptions {
  /** TCP port; 0 picks a free one; default 8080. */
  port?: number | undefined;
  /** Interface to bind (default `127.0.0.1`; `0.0.0.0` for every interface, as in a container). */
  host?: string | undefined;
  /** Path of a host configuration module. */
  config?: string | undefined;
  /** MongoDB connection string (else `platform.mongo.uri`; none: the in-memory stores). */
  mongoUri?: string | undefined;
  /** Where the demo keeps `.platform/key-encryption-key` (MongoDB without a configured key); default the working directory. */
  cwd?: string | undefined;
}

/** A running demo server. */
export type RunningDemo = RunningServer;

/** `platform start`: builds the demo, listens on `host` (default 127.0.0.1) and prints its URL as http://localhost:PORT. */
export async function startCommand(
  args: StartOptions,
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<RunningDemo> {
  const host = args.config ? await loadHostConfig(args.config) : {};
  const store = demoStore(host, args.mongoUri, process.env, args.cwd ?? process.cwd());
  const { demo, server } = await startServing(store, args.port ?? 8080, args.host);
  const lines = [`Platform demo listening on ${server.url}`];
  for (const route of demo.routes.list()) {
    // Only literal paths are URLs to open (no `*`, `**` or `{name}`).
    if (route.method !== "GET" || /[*{]/.test(route.path)) continue;
    lines.push(`  ${route.description ?? route.path}: ${server.url}${route.path === "/" ? "" : route.path}`);
  }
  lines.push(
    `  Sign in: ${server.url}/login   REST: POST ${server.url}/api/login   Who am I: ${server.url}/api/me`,
  );
  lines.push(`  Magic link: ${server.url}/login/ott (links go to ${outboxFile(demo.platform)})`);
  lines.push(`  Passkeys: ${server.url}/passkeys`);
  lines.push(
    `  Users: ${DEMO_USERS.map((u) => `${u.username} / ${u.password} (${u.authorities.join(", ")})`).join("; ")}`,
  );
  lines.push(...store.lines);
  if (args.config) lines.push(`  config: ${args.config}`);
  out(lines.join("\n"));
  return runningServer(server, demo);
}

/**
 * Starts the platform (its store connects) before anything listens, then listens: a failed start
 * leaves no server. Only then is a key-encryption key generated for this start saved, so a failed
 * start leaves no key file either; a key that cannot be saved stops what started.
 */
async function startServing(store: DemoStore, port: number, hostname = "127.0.0.1") {
  let demo: Awaited<ReturnType<typeof buildDemoPlatform>>;
  try {
    demo = await buildDemoPlatform(store.host);
  } catch (error) {
    throw store.generatedKey ? explainGeneratedKey(error) : error;
  }
  let server: Awaited<ReturnType<typeof serveHttp>> | undefined;
  try {
    server = await serveHttp(demo.app, { port, hostname });
    demo.platform.resolve(ServerAddress).port = server.port;
    store.persist();
    return { demo, server };
  } catch (error) {
    await server?.close(true);
    await demo.platform.stop();
    throw error;
  }
}

/** A start under a freshly generated key that the configuration refused: say what the key was. */
function explainGeneratedKey(error: unknown): unknown {
  if (!isPlatformError(error, "CONFIGURATION_INVALID")) return error;
  return new PlatformError(
    "CONFIGURATION_INVALID",
    `${error.message} (the key-encryption key was generated for this start and not saved: if this database already holds sealed keys, start where the ${DEMO_KEK_FILE} that sealed them is, or set platform.keys.encryption-key)`,
    { cause: error },
  );
}

/** Where the demo's outbox delivery writes magic links (absolute, so the user can open it). */
function outboxFile(platform: Platform): string {
  return resolve(platform.properties.get(OTT_OUTBOX_FILE));
}
