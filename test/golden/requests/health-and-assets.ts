import type { GoldenGroup } from "../golden-types.js";
import { getJson, getPage, hostileSteps, step } from "./request-builders.js";

const SDK = "/js/platform-mfa-sdk.js";

/** `/health`, the home page, the SDK and page scripts under `/js`. */
export const healthAndAssets: GoldenGroup = {
  name: "health-and-assets",
  description: "GET /health, the demo's home page, /js/* (SDK, page scripts, manifest, hashed aliases)",
  scenarios: [
    {
      name: "health",
      steps: [
        step("GET /health", getJson("/health")),
        step("HEAD /health", { method: "HEAD", path: "/health" }),
        step("POST /health (wrong method, no CSRF token)", { method: "POST", path: "/health", json: {} }),
        step("DELETE /health (wrong method)", { method: "DELETE", path: "/health" }),
        ...hostileSteps("GET /health", getJson("/health")),
      ],
    },
    {
      name: "home page",
      given: { user: "session:user" },
      steps: [
        step("anonymous GET /", getPage("/")),
        step("signed-in GET /", getPage("/"), { actor: "user" }),
        step("anonymous GET / as JSON", getJson("/")),
        step("anonymous PUT / (wrong method)", { method: "PUT", path: "/", json: {} }),
      ],
    },
    {
      name: "SDK and page scripts",
      steps: [
        step("GET /js/manifest.json", getJson("/js/manifest.json"), {
          capture: { alias: "json:files/platform-mfa-sdk.js/file" },
        }),
        step("GET the SDK", { method: "GET", path: SDK }, { capture: { etag: "header:etag" } }),
        step("GET the SDK, If-None-Match", {
          method: "GET",
          path: SDK,
          headers: { "if-none-match": "{{etag}}" },
        }),
        step("HEAD the SDK", { method: "HEAD", path: SDK }),
        step("GET the SDK's hashed alias", { method: "GET", path: "/js/{{alias}}" }),
        step("GET the ESM SDK", { method: "GET", path: "/js/platform-mfa-sdk.esm.js" }),
        step("GET the login page script", { method: "GET", path: "/js/platform-login-page.js" }),
        step("GET the passkey page script", { method: "GET", path: "/js/platform-passkey-page.js" }),
        step("GET the OTT request page script", { method: "GET", path: "/js/platform-ott-request-page.js" }),
        step("GET the OTT verify page script", { method: "GET", path: "/js/platform-ott-verify-page.js" }),
        step("GET an unknown script", { method: "GET", path: "/js/nope.js" }),
        step("GET /js itself", { method: "GET", path: "/js" }),
        step("GET a wrong hashed alias", { method: "GET", path: "/js/platform-mfa-sdk.000000000000.js" }),
        step("POST the SDK (wrong method)", { method: "POST", path: SDK, text: "{}" }),
        step("GET a path escaping /js", { method: "GET", path: "/js/../package.json" }),
        step("GET an encoded path escaping /js", { method: "GET", path: "/js/%2e%2e/package.json" }),
        ...hostileSteps("GET the SDK", { method: "GET", path: SDK }),
      ],
    },
    {
      name: "unknown paths",
      steps: [
        step("GET an unknown page", getPage("/nope")),
        step("GET an unknown API path", getJson("/api/nope")),
        step("GET a path with a backslash", getJson("/api\\me")),
        step("GET a path with ;", getJson("/api/me;x=1")),
        step("GET a path with %00", getJson("/api/me%00")),
      ],
    },
  ],
};
