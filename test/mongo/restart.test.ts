import { createServer } from "node:net";
import { mongoPlugin } from "@keyward/adapters-mongo";
import { startWireDouble, type WireDouble } from "@keyward/adapters-mongo/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../identity/identity-test-server.js";
import {
  assertion,
  jsonHeaders,
  registerPasskey,
  SoftwareAuthenticator,
} from "../identity/passkey-http-support.js";
import { json, NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

// The demo on MongoDB, stopped and started again on the same database (the wire double keeps running,
// as a database server outlives the application): the passkey, the policy, the session and the tokens
// made before the restart all still work after it, refresh included.

const KEK = "restart-test-key-encryption-key-0123456789abcdef";
const DB = "platform_restart";

let double: WireDouble;
let port: number;
let demo: RunningDemo | undefined;

/** A free TCP port on 127.0.0.1 (the demo comes back on it: the passkey's origin names the port). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

function startOnMongo(): Promise<RunningDemo> {
  return startDemo(
    {},
    { ...NO_MFA_FOR_ADMINS, "platform.keys.encryption-key": KEK },
    { plugins: [mongoPlugin({ uri: double.uri, dbName: DB })] },
    { port },
  );
}

beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  port = await freePort();
  demo = await startOnMongo();
});
afterAll(async () => {
  await demo?.close();
  await double?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}`, accept: "application/json" });

describe("the demo on MongoDB survives a restart", () => {
  it("passkey, policy, session and tokens made before the restart work after it", async () => {
    const base = () => demo!.base;
    const origin = `http://localhost:${port}`;

    // Before: user signs in with the password and registers a passkey.
    const session = new Browser(base());
    const csrf = await session.csrfFrom("/login");
    expect(
      (await session.postForm("/login", { username: "user", password: "password", _csrf: csrf })).status,
    ).toBe(302);
    const device = new SoftwareAuthenticator(origin);
    const registered = await registerPasskey(
      session,
      device,
      jsonHeaders(await session.csrfFrom("/passkeys")),
    );
    expect(registered.status, await registered.clone().text()).toBe(201);

    // An admin creates a policy: user may no longer list orders.
    const admin = (await (
      await fetch(`${base()}/api/login`, json("POST", { username: "admin", password: "admin" }))
    ).json()) as {
      accessToken: string;
    };
    const created = await fetch(
      `${base()}/admin/api/policies`,
      json(
        "POST",
        {
          name: "Restart: users may not list orders",
          description: "created before the restart",
          effect: "DENY",
          priority: 5,
          targets: [{ targetType: "URL", targetIdentifier: "/api/orders", httpMethod: "GET" }],
          rules: [{ name: "users", conditions: [{ expression: "hasRole('USER') and !hasRole('ADMIN')" }] }],
        },
        bearer(admin.accessToken),
      ),
    );
    expect(created.status, await created.clone().text()).toBe(201);

    // A REST client holds tokens.
    const tokens = (await (
      await fetch(`${base()}/api/login`, json("POST", { username: "user", password: "password" }))
    ).json()) as {
      accessToken: string;
      refreshToken: string;
    };
    const listOrders = async (token: string) =>
      (await fetch(`${base()}/api/orders`, { headers: bearer(token) })).status;
    expect(await listOrders(tokens.accessToken)).toBe(403);

    // Restart.
    await demo!.close();
    demo = await startOnMongo();

    // The session still works.
    const me = await session.fetch("/api/me", { headers: { accept: "application/json" } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: "user" });

    // The passkey signs in.
    const fresh = new Browser(base());
    const headers = jsonHeaders(await fresh.csrfFrom("/passkeys"));
    const signed = await assertion(fresh, device, headers, { username: "user" });
    const login = await fresh.postJson("/login/webauthn", signed, headers);
    expect(login.status, await login.clone().text()).toBe(200);
    expect(await (await fresh.fetch("/api/me")).json()).toMatchObject({
      username: "user",
      method: "passkey",
    });

    // The access token still verifies (the signing key was stored, sealed), and the policy decides.
    expect(await listOrders(tokens.accessToken)).toBe(403);
    const mine = await fetch(`${base()}/api/me`, { headers: bearer(tokens.accessToken) });
    expect(mine.status).toBe(200);

    // The refresh token rotates.
    const refreshed = await fetch(
      `${base()}/api/token/refresh`,
      json("POST", { refreshToken: tokens.refreshToken }),
    );
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as { accessToken: string };
    expect((await fetch(`${base()}/api/me`, { headers: bearer(next.accessToken) })).status).toBe(200);
  });
});
