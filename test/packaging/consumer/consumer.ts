// A consumer's TypeScript against the installed packages' declarations, compiled by a strict tsc
// (NodeNext, strict, the default lib with DOM, @types/node): the DSL with `.mfa()` and the
// recentFactor rule (declaration merging), ports, errors, routes, the HTTP binding, the browser SDK.
import "reflect-metadata";
import { createHttpApp, httpPlugin, RouteRegistry, serveHttp } from "@keyward/adapters-http";
import {
  authzPlugin,
  createIdentityPlugin,
  createPlatform,
  currentAuthentication,
  mfaPlugin,
  type Platform,
  type SecurityConfiguration,
  type SecurityRegistry,
} from "@keyward/core";
import { isPlatformError, PlatformError } from "@keyward/core/errors";
import {
  PasswordHasher,
  type UserRepository,
  UserRepository as UserRepositoryToken,
} from "@keyward/core/ports";
import { Client, PlatformMfaError } from "@keyward/sdk-browser";

function security(registry: SecurityRegistry): SecurityConfiguration {
  return registry
    .mfa((mfa) =>
      mfa
        .primaryAuthentication((p) => p.formLogin((form) => form.defaultSuccessUrl("/")))
        .ott()
        .rawHttp((http) =>
          http.authorizeHttpRequests((a) => a.requestMatchers("/account/**").recentFactor(300_000)),
        ),
    )
    .session()
    .rest((rest) => rest.rawHttp((h) => h.securityMatcher("/api/**")))
    .oauth2()
    .build();
}

export async function start(
  port: number,
): Promise<{ platform: Platform; url: string; stop(): Promise<void> }> {
  const platform = createPlatform({
    plugins: [httpPlugin, createIdentityPlugin({ security }), mfaPlugin, authzPlugin],
    env: process.env,
  });
  await platform.start();
  const users: UserRepository = platform.resolve(UserRepositoryToken);
  const hash: string = await platform.resolve(PasswordHasher).hash("a long passphrase");
  await users.create({ username: "kim", passwordHash: hash, authorities: ["ROLE_USER"] });
  const routes = new RouteRegistry().add({
    method: "GET",
    path: "/api/me",
    handler: (exchange) => ({ user: currentAuthentication(exchange)?.username ?? null }),
  });
  const { app } = createHttpApp({ platform, routes });
  const server = await serveHttp(app, { port });
  return {
    platform,
    url: server.url,
    async stop() {
      await server.close();
      await platform.stop();
    },
  };
}

export function describeError(error: unknown): string {
  if (isPlatformError(error, "BAD_CREDENTIALS")) return `bad credentials (${error.code})`;
  if (error instanceof PlatformError) return error.code;
  return error instanceof PlatformMfaError ? `sdk: ${error.code} ${error.status}` : String(error);
}

export async function browserLogin(username: string, password: string): Promise<boolean> {
  const client = new Client({ autoInit: false, autoRedirect: false });
  const answer = await client.apiClient.login(username, password);
  const response: Response = await fetch("/api/me");
  return answer !== undefined && response.ok;
}
