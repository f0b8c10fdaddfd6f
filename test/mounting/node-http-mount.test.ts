import { createServer } from "node:http";
import { toNodeListener } from "@keyward/adapters-http";
import { describeMountedPlatform } from "./mounted-platform-contract.js";
import { closeServer, listenLocally } from "./mounted-platform.js";

describeMountedPlatform("Node's http.createServer", async ({ http }) => {
  // docs/mounting.md, "Node's http": the same lines.
  const server = createServer(toNodeListener(http.app));
  return { base: await listenLocally(server), close: () => closeServer(server) };
});
