import "reflect-metadata"; // once, first, in each entry point
import { createHttpApp, httpPlugin, serveHttp } from "@keyward/adapters-http";
import { createIdentityPlugin, createPlatform } from "@keyward/core";
import { CryptoIdGenerator, SystemClock } from "@keyward/core/adapter-kit";
import { PasswordHasher, UserRepository } from "@keyward/core/ports";
import { HostUsers } from "./h3-host/src/host-users.js"; // your UserRepository (examples/h3-host)

const users = new HostUsers({ ids: new CryptoIdGenerator(), clock: new SystemClock() });
export const platform = createPlatform({
  // The identity module signs users in and protects routes; without it createHttpApp refuses a
  // UserRepository (CONFIGURATION_INVALID naming createIdentityPlugin).
  plugins: [httpPlugin, createIdentityPlugin({ security: (r) => r.rest().oauth2().build() })],
  properties: { "platform.http.max-body-size": "256kb" },
  // Replaces the platform's default for a port, after every plugin (see docs/architecture.md).
  overrides: (o) => o.override(UserRepository, { useValue: users }),
});
await platform.start();
const hasher = platform.resolve(PasswordHasher);
await users.create({ username: "ada", passwordHash: await hasher.hash("correct horse battery") });
export const server = await serveHttp(createHttpApp({ platform }).app, {
  port: Number(process.env.PORT ?? 8080),
});
// GET /health → 200; POST /api/login {"username":"ada","password":"correct horse battery"} → {"accessToken", …}
