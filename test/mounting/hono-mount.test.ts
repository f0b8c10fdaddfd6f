import type { Server } from "node:http";
import { createAdaptorServer } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeMountedPlatform } from "./mounted-platform-contract.js";
import {
  closeServer,
  listenLocally,
  type MountedPlatform,
  rawRequest,
  startMountedPlatform,
} from "./mounted-platform.js";

describeMountedPlatform("Hono (@hono/node-server)", async ({ http }) => {
  // docs/mounting.md, "Hono": the recipe's lines, to "end of recipe" (test/docs/mounting-recipes.test.ts).
  const hono = new Hono();
  hono.all("*", (c) => http.app.fetch(Object.assign(c.req.raw, { ip: getConnInfo(c).remote.address })));
  // end of recipe
  const server = createAdaptorServer({ fetch: hono.fetch }) as Server; // what serve({ fetch, port }) does
  return { base: await listenLocally(server), close: () => closeServer(server) };
});

describe("Hono mounting mistakes", () => {
  let mounted: MountedPlatform;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    mounted = await startMountedPlatform({ "platform.http.trusted-proxies": "loopback" });
    const hono = new Hono();
    // Wrong: Hono's mount hands over a new Request (prefix stripped) that carries no client address.
    hono.mount("/mounted", mounted.http.app.fetch);
    // Wrong: a middleware reads the body before the platform.
    hono.use("/api/*", async (c, next) => {
      if (c.req.method === "POST") await c.req.json();
      await next();
    });
    hono.all("*", (c) =>
      mounted.http.app.fetch(Object.assign(c.req.raw, { ip: getConnInfo(c).remote.address })),
    );
    server = createAdaptorServer({ fetch: hono.fetch }) as Server;
    base = await listenLocally(server);
  });
  afterAll(async () => {
    await closeServer(server);
    await mounted.platform.stop();
  });

  it("without the address (app.mount) the platform sees no client and trusts no forwarded header", async () => {
    const res = await rawRequest(base, "/mounted/hello", { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(JSON.parse(res.body)).toEqual({ client: "" });
  });

  it("refuses a body a middleware already read, with a clear log line", async () => {
    const res = await rawRequest(base, "/api/login", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ username: "alice", password: "wonderland" }),
    });
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body)).toMatchObject({ code: "INTERNAL_ERROR" });
    expect(mounted.log.errors().join("\n")).toMatch(/mount the platform before any body parser/);
  });
});
