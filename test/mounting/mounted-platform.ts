import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createHttpApp, type HttpApp, httpPlugin, RouteRegistry } from "@keyward/adapters-http";
import { createIdentityPlugin, createPlatform, currentAuthentication, type Platform } from "@keyward/core";
import { type LogFields, Logger, PasswordHasher, UserRepository } from "@keyward/core/ports";
import { LOW_COST_SCRYPT } from "../support/low-cost-scrypt.js";

/**
 * The platform every mounting test (and docs/mounting.md) mounts in a host: a form chain with a
 * session for `/login`, `/logout` and `/account/**` (CSRF on; `GET /account/me` needs a signed-in
 * caller and answers who), a REST chain with bearer tokens for `/api/**` where
 * every route needs a signed-in caller, one user (`alice` / `wonderland`), a public route
 * `GET /hello` that answers the client address the platform sees, and a protected route
 * `GET /api/data` that answers who called.
 */
export interface MountedPlatform {
  platform: Platform;
  /** The h3 app: `app.fetch` is the web-standard fetch handler every host mounts. */
  http: HttpApp;
  /** Every line the platform logged (its Logger port), to read what an operator would be told. */
  log: RecordingLogger;
}

/** A Logger that keeps its lines (and prints none). */
export class RecordingLogger implements Logger {
  readonly lines: { level: string; message: string; fields: LogFields }[] = [];
  info(message: string, fields: LogFields = {}): void {
    this.lines.push({ level: "info", message, fields });
  }
  warn(message: string, fields: LogFields = {}): void {
    this.lines.push({ level: "warn", message, fields });
  }
  error(message: string, fields: LogFields = {}): void {
    this.lines.push({ level: "error", message, fields });
  }
  /** The error lines' `error` field (the message of what failed). */
  errors(): string[] {
    return this.lines.filter((l) => l.level === "error").map((l) => String(l.fields.error));
  }
}

/** Starts the platform with the properties (trusted proxies, say) and routes given, and creates its h3 app. */
export async function startMountedPlatform(
  properties: Record<string, unknown> = {},
  moreRoutes?: (routes: RouteRegistry) => void,
): Promise<MountedPlatform> {
  const log = new RecordingLogger();
  const platform = createPlatform({
    plugins: [
      httpPlugin,
      createIdentityPlugin({
        security: (r) =>
          r
            .form((f) =>
              f.rawHttp((h) =>
                h
                  .securityMatcher("/login", "/logout", "/account/**")
                  .authorizeHttpRequests((a) =>
                    a.requestMatchers("/account/**").authenticated().anyRequest().permitAll(),
                  ),
              ),
            )
            .session()
            .rest((x) =>
              x.rawHttp((h) =>
                h.securityMatcher("/api/**").authorizeHttpRequests((a) => a.anyRequest().authenticated()),
              ),
            )
            .oauth2()
            .build(),
      }),
    ],
    properties: { ...LOW_COST_SCRYPT, ...properties },
    env: {},
    overrides: (o) => o.override(Logger, { useValue: log }),
  });
  await platform.start();
  const users = platform.resolve(UserRepository);
  const passwordHash = await platform.resolve(PasswordHasher).hash("wonderland");
  await users.create({ username: "alice", passwordHash, authorities: ["ROLE_USER"] });
  const routes = new RouteRegistry();
  routes.add({ method: "GET", path: "/hello", handler: (ex) => ({ client: ex.remoteAddress }) });
  routes.add({
    method: "GET",
    path: "/account/me",
    handler: (ex) => ({ user: currentAuthentication(ex)?.username ?? null }),
  });
  routes.add({
    method: "GET",
    path: "/api/data",
    handler: (ex) => ({ user: currentAuthentication(ex)?.username ?? null }),
  });
  moreRoutes?.(routes);
  return { platform, http: createHttpApp({ platform, routes }), log };
}

/** Listens on 127.0.0.1 with an ephemeral port and answers the base URL. */
export async function listenLocally(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes a server and every connection it holds (keep-alive ones included). */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Signs `alice` in through the REST login and answers the access token. */
export async function restLogin(base: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ username: "alice", password: "wonderland" }),
  });
  if (res.status !== 200) throw new Error(`REST login answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/** A raw HTTP/1.1 answer: status, headers and body text (for requests fetch will not send as asked). */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends one request through node:http with exactly these headers (Host and X-Forwarded-For included). */
export function rawRequest(
  base: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: init.method ?? "GET",
        headers: init.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

/** The `name=value` pairs of an answer's Set-Cookie headers, as a Cookie header sends them back. */
export function cookiesOf(answer: RawAnswer, before = ""): string {
  const jar = new Map<string, string>();
  for (const pair of before.split("; ").filter(Boolean)) jar.set(pair.slice(0, pair.indexOf("=")), pair);
  for (const line of [answer.headers["set-cookie"] ?? []].flat()) {
    const pair = line.split(";")[0]!.trim();
    jar.set(pair.slice(0, pair.indexOf("=")), pair);
  }
  return [...jar.values()].join("; ");
}
