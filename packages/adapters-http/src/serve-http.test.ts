import { createPlatform } from "@keyward/core";
import { describe, expect, it } from "vitest";
import { createHttpApp } from "./create-http-app.js";
import { httpPlugin } from "./http-properties.js";
import { serveHttp } from "./serve-http.js";

describe("serveHttp", () => {
  it("binds an ephemeral port, reports it as http://localhost:PORT and closes", async () => {
    const platform = createPlatform({ plugins: [httpPlugin], env: {} });
    await platform.start();
    const { app } = createHttpApp({ platform });
    const a = await serveHttp(app, { port: 0 });
    const b = await serveHttp(app, { port: 0 });
    expect(a.port).toBeGreaterThan(0);
    expect(a.port).not.toBe(b.port);
    expect(a.url).toBe(`http://localhost:${a.port}`);
    expect((await fetch(`${a.url}/health`)).status).toBe(200);
    await a.close();
    await b.close();
    await expect(fetch(`${a.url}/health`)).rejects.toThrow();
    await platform.stop();
  });

  it("rejects when the port is taken", async () => {
    const platform = createPlatform({ plugins: [httpPlugin], env: {} });
    const { app } = createHttpApp({ platform });
    const first = await serveHttp(app, { port: 0 });
    await expect(serveHttp(app, { port: first.port })).rejects.toThrow(/EADDRINUSE/);
    await first.close();
  });
});
