import { describe, expect, it } from "vitest";
import * as api from "./index.js";

describe("@keyward/adapters-http public API", () => {
  it("exports exactly these names", () => {
    expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
      [
        "CORRELATION_ID_ATTRIBUTE",
        "HTTP_MAX_BODY_SIZE",
        "HTTP_OPENAPI_ENABLED",
        "HTTP_PROPERTIES",
        "HTTP_TRUSTED_PROXIES",
        "HTTP_TRUST_PROXY",
        "OPENAPI_PATH",
        "REST_DOCS_PATH",
        "RouteRegistry",
        "STATIC_CONTENT_TYPES",
        "buildOpenApiDocument",
        "correlationIdOf",
        "createHttpApp",
        "healthRoute",
        "httpPlugin",
        "parseTrustedProxies",
        "readLimitedText",
        "renderReferencePage",
        "routeAnchor",
        "routeParams",
        "serveHttp",
        "staticAssetsRoute",
        "toExchange",
        "writeExchange",
      ]
    `);
  });
});
