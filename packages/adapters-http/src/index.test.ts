import { describe, expect, it } from "vitest";
import * as api from "./index.js";

describe("@keyward/adapters-http public API", () => {
  it("exports exactly these names", () => {
    expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
      [
        "ACCESS_LOG_MESSAGE",
        "CORRELATION_ID_ATTRIBUTE",
        "HTTP_ACCESS_LOG_ENABLED",
        "HTTP_MAX_BODY_SIZE",
        "HTTP_METRICS_AUDIENCE",
        "HTTP_METRICS_BEARER_TOKEN",
        "HTTP_METRICS_ENABLED",
        "HTTP_METRICS_PATH",
        "HTTP_OPENAPI_ENABLED",
        "HTTP_PROPERTIES",
        "HTTP_TRUSTED_PROXIES",
        "HTTP_TRUST_PROXY",
        "MailTemplates",
        "OPENAPI_PATH",
        "RouteRegistry",
        "STATIC_CONTENT_TYPES",
        "SmtpOneTimeTokenDelivery",
        "buildOpenApiDocument",
        "correlationIdOf",
        "createHttpApp",
        "defaultMailTemplates",
        "escapeHtml",
        "healthRoute",
        "httpPlugin",
        "incomingCorrelationId",
        "mailPlugin",
        "parseTrustedProxies",
        "readLimitedText",
        "renderReferencePage",
        "routeAnchor",
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
