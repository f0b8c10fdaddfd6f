import { createServer, type Server } from "node:http";
import { toNodeListener } from "@keyward/adapters-http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeMountedPlatform } from "./mounted-platform-contract.js";
import {
  closeServer,
  listenLocally,
  type MountedPlatform,
  rawRequest,
  startMountedPlatform,
} from "./mounted-platform.js";

describeMountedPlatform("Express (at the root)", async ({ http }) => {
  // docs/mounting.md, "Express": the recipe's lines, to "end of recipe" (test/docs/mounting-recipes.test.ts).
  const app = express();
  app.use(toNodeListener(http.app));
  // end of recipe
  const server = createServer(app); // what app.listen(port) does
  return { base: await listenLocally(server), close: () => closeServer(server) };
});

const JSON_LOGIN = {
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json" },
  body: JSON.stringify({ username: "alice", password: "wonderland" }),
};

describe("Express mounting mistakes answer a clear configuration error, never a hang", () => {
  let mounted: MountedPlatform;
  let server: Server;
  let base: string;
  let parsing: Server;
  let parsingBase: string;
  beforeAll(async () => {
    mounted = await startMountedPlatform();
    // Wrong: a body parser in front of the platform reads the body first.
    const parsingApp = express();
    parsingApp.use(express.json());
    parsingApp.use(toNodeListener(mounted.http.app));
    parsing = createServer(parsingApp);
    parsingBase = await listenLocally(parsing);
    const app = express();
    // A host middleware's headers: kept, except where the platform sets the same header.
    app.use((_req, res, next) => {
      res.setHeader("x-host", "kept");
      res.setHeader("content-security-policy", "default-src *");
      next();
    });
    // Wrong: a prefix mount (Express strips /auth from the URL the platform sees).
    app.use("/auth", toNodeListener(mounted.http.app));
    // Right: a host route before the platform is the host's (and outside the platform's chains).
    app.get("/host/ping", (_req, res) => {
      res.json({ pong: true });
    });
    app.use(toNodeListener(mounted.http.app));
    // Never reached: the platform answers every request that gets to it (404 included).
    app.get("/host/after", (_req, res) => {
      res.json({ reached: true });
    });
    server = createServer(app);
    base = await listenLocally(server);
  });
  afterAll(async () => {
    await closeServer(server);
    await closeServer(parsing);
    await mounted.platform.stop();
  });

  it("refuses a body a parser mounted before the platform already read", async () => {
    const res = await rawRequest(parsingBase, "/api/login", JSON_LOGIN);
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body)).toMatchObject({ code: "INTERNAL_ERROR" });
    expect(res.body).not.toMatch(/at |body parser|stack/);
    expect(mounted.log.errors().join("\n")).toMatch(/mount the platform before any body parser/);
    // A request without a body is unaffected by the parser.
    expect(JSON.parse((await rawRequest(parsingBase, "/hello")).body)).toEqual({ client: "127.0.0.1" });
  });

  it("refuses a prefix mount, naming the prefix in the log", async () => {
    const res = await rawRequest(base, "/auth/hello");
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body)).toMatchObject({ code: "INTERNAL_ERROR" });
    expect(mounted.log.errors().join("\n")).toMatch(/mounted under the prefix "\/auth"/);
  });

  it("keeps a host middleware's headers, but the platform's own (its CSP) win", async () => {
    const page = await rawRequest(base, "/login", { headers: { accept: "text/html" } });
    expect(page.headers["x-host"]).toBe("kept");
    expect(page.headers["content-security-policy"]).toMatch(/^default-src 'self'/);
  });

  it("serves host routes placed before the platform; routes after it are never reached", async () => {
    expect(JSON.parse((await rawRequest(base, "/host/ping")).body)).toEqual({ pong: true });
    const after = await rawRequest(base, "/host/after", { headers: { accept: "application/json" } });
    expect(after.status).toBe(404);
    expect(JSON.parse(after.body)).toMatchObject({ code: "NOT_FOUND" });
  });
});
