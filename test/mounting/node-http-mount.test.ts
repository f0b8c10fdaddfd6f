import { createServer } from "node:http";
import { toNodeListener } from "@keyward/adapters-http";
import { describe, expect, it, vi } from "vitest";
import { describeMountedPlatform } from "./mounted-platform-contract.js";
import { closeServer, listenLocally, rawRequest, startMountedPlatform } from "./mounted-platform.js";

describeMountedPlatform("Node's http.createServer", async ({ http }) => {
  // docs/mounting.md, "Node's `http`": the recipe's lines, to "end of recipe" (test/docs/mounting-recipes.test.ts).
  const server = createServer(toNodeListener(http.app));
  // end of recipe
  return { base: await listenLocally(server), close: () => closeServer(server) };
});

describe("graceful shutdown of a host that mounts the platform", () => {
  it("stops accepting, finishes the request in flight, then stops the platform", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached = () => {};
    const arrived = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const mounted = await startMountedPlatform({}, (routes) =>
      routes.add({
        method: "GET",
        path: "/slow",
        handler: async () => {
          reached();
          await gate;
          return { done: true };
        },
      }),
    );
    const { platform } = mounted;
    const server = createServer(toNodeListener(mounted.http.app));
    const base = await listenLocally(server);
    const inFlight = rawRequest(base, "/slow");
    await arrived;
    // docs/mounting.md, "Graceful shutdown": the recipe's lines, to "end of recipe" (test/docs/mounting-recipes.test.ts).
    server.close(async () => {
      await platform.stop();
    });
    setTimeout(() => server.closeAllConnections(), 10_000).unref(); // the deadline
    // end of recipe
    await expect(rawRequest(base, "/hello")).rejects.toThrow(/ECONNREFUSED/);
    expect(platform.state).toBe("started");
    release();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ done: true });
    await vi.waitFor(() => expect(platform.state).toBe("stopped"));
  });
});
