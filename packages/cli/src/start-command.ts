import { serveHttp } from "@platform/adapters-http";
import { resolve } from "node:path";
import { OTT_OUTBOX_FILE, type Platform, ServerAddressToken } from "@platform/core";
import type { CliArgs } from "./cli-args.js";
import { buildDemoPlatform } from "./demo-platform.js";
import { DEMO_USERS } from "./demo-security.js";
import { type HostConfig, loadHostConfig } from "./host-config.js";

/** A running demo server. */
export interface RunningDemo {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** `platform start`: builds the demo, listens on 127.0.0.1 and prints its URL as http://localhost:PORT. */
export async function startCommand(
  args: CliArgs,
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<RunningDemo> {
  const host: HostConfig = args.config ? await loadHostConfig(args.config) : {};
  const demo = await buildDemoPlatform(host);
  const server = await serveHttp(demo.app, { port: args.port ?? 8080, hostname: "127.0.0.1" });
  demo.platform.resolve(ServerAddressToken).port = server.port;
  const lines = [`Platform demo listening on ${server.url}`];
  for (const route of demo.routes.list()) {
    if (route.method !== "GET" || route.path.includes("*") || route.path.includes(":")) continue;
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
  if (args.config) lines.push(`  config: ${args.config}`);
  out(lines.join("\n"));
  return {
    url: server.url,
    port: server.port,
    async close() {
      await server.close();
      await demo.platform.stop();
    },
  };
}

/** Where the demo's outbox delivery writes magic links (absolute, so the user can open it). */
function outboxFile(platform: Platform): string {
  return resolve(platform.properties.get(OTT_OUTBOX_FILE));
}
