import { createServer } from "node:http";
import { toNodeListener } from "@keyward/adapters-http";
import { describeMountedPlatform } from "./mounted-platform-contract.js";
import { closeServer, listenLocally } from "./mounted-platform.js";

describeMountedPlatform("Node's http.createServer", async ({ http }) => {
  // docs/mounting.md, "Node's `http`": the recipe's lines, to "end of recipe" (test/docs/mounting-recipes.test.ts).
  const server = createServer(toNodeListener(http.app));
  // end of recipe
  return { base: await listenLocally(server), close: () => closeServer(server) };
});
