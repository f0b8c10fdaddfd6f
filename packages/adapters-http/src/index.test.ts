import { describe, expect, it } from "vitest";
import * as api from "./index.js";

describe("@keyward/adapters-http public API", () => {
  it("exports exactly these names", () => {
    expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
      [
        "CORRELATION_ID_ATTRIBUTE",
        "HTTP_MAX_BODY_SIZE",
        "HTTP_PROPERTIES",
        "HTTP_TRUSTED_PROXIES",
        "HTTP_TRUST_PROXY",
        "RouteRegistry",
        "STATIC_CONTENT_TYPES",
        "correlationIdOf",
        "createHttpApp",
        "healthRoute",
        "httpPlugin",
        "parseTrustedProxies",
        "readLimitedText",
        "routeParams",
        "serveHttp",
        "staticAssetsRoute",
        "toExchange",
        "toNodeListener",
        "writeExchange",
      ]
    `);
  });
});
