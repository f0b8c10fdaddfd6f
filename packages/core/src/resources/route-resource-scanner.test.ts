import { describe, expect, it } from "vitest";
import { type Route, RouteTable } from "../web/route-table.js";
import { isPlatformRoute, RouteResourceScanner } from "./route-resource-scanner.js";

const handler = () => undefined;

/** A route as the HTTP binding stores a host's (`RouteRegistry.add` defaults: feature app, chain-rules). */
const app = (method: Route["method"], path: string, extra: Partial<Route> = {}): Route => ({
  method,
  path,
  name: `app.${method} ${path}`,
  description: "",
  feature: "app",
  access: "chain-rules",
  handler,
  ...extra,
});

function demoTable(): RouteTable {
  const table = new RouteTable();
  // The platform's own: a chain's entry route, a mounted admin API, and application routes of platform features.
  table.add({
    ...app("POST", "/login"),
    name: "mfa.primary-login",
    feature: "mfa",
    access: "public",
    chain: "mfa",
  });
  table.add({
    ...app("GET", "/admin/api/users"),
    name: "identity.users.list",
    feature: "identity.users-admin",
    access: "admin",
    chain: "mfa",
    stage: "mounted",
  });
  table.add({ ...app("GET", "/health"), name: "http.health", feature: "http", access: "public" });
  table.add({ ...app("GET", "/js/**"), name: "http.sdk-assets", feature: "http", access: "public" });
  table.add({
    ...app("GET", "/platform/admin/api/security-decisions/{id}"),
    name: "decisions.admin.get",
    feature: "decisions",
    access: "admin",
  });
  // The host's.
  table.add(app("GET", "/api/orders"));
  table.add(app("POST", "/api/orders"));
  table.add(app("GET", "/api/orders/:id"));
  table.add(app("DELETE", "/api/orders/{id}"));
  table.add(app("HEAD", "/api/orders/{orderId}")); // folded into GET /api/orders/{id}: same shape
  table.add(app("HEAD", "/api/ping")); // HEAD alone: kept
  table.add(
    app("ANY", "/api/webhooks/{source}/{event:[a-z.]+}", {
      name: "shop.webhooks",
      feature: "shop.integrations",
    }),
  );
  table.add(app("GET", "/files/**", { name: "shop.files", feature: "shop" }));
  return table;
}

const scan = (table = demoTable(), restDocsPath = "/docs/index.html") =>
  new RouteResourceScanner({ routes: table, restDocsPath }).scan();

describe("RouteResourceScanner", () => {
  it("makes a URL resource of each host route, none of the platform's own, HEAD twins folded into GET", async () => {
    const found = await scan();
    expect(found.map((r) => `${r.httpMethod} ${r.resourceIdentifier}`)).toEqual([
      "GET /api/orders",
      "POST /api/orders",
      "GET /api/orders/{id}",
      "DELETE /api/orders/{id}",
      "HEAD /api/ping",
      "ANY /api/webhooks/{source}/{event:[a-z.]+}",
      "GET /files/**",
    ]);
    expect(new Set(found.map((r) => r.resourceType))).toEqual(new Set(["URL"]));
  });

  it("fills every field from the route: name, description, owner, docs link, path variables", async () => {
    const found = await scan();
    expect(found.find((r) => r.httpMethod === "DELETE")).toEqual({
      resourceIdentifier: "/api/orders/{id}",
      resourceType: "URL",
      httpMethod: "DELETE",
      friendlyName: "app.DELETE /api/orders/{id}",
      description: "URL: [DELETE] /api/orders/{id}",
      serviceOwner: "app",
      apiDocsUrl: "/docs/index.html#app.DELETE%20%2Fapi%2Forders%2F%7Bid%7D",
      availableContextVariables: '["id"]',
    });
    const webhooks = found.find((r) => r.httpMethod === "ANY")!;
    expect(webhooks).toMatchObject({
      friendlyName: "shop.webhooks",
      description: "URL: [ANY] /api/webhooks/{source}/{event:[a-z.]+}",
      serviceOwner: "shop.integrations",
      apiDocsUrl: "/docs/index.html#shop.webhooks",
      availableContextVariables: '["source","event"]',
    });
    expect(found.find((r) => r.resourceIdentifier === "/files/**")?.availableContextVariables).toBe("[]");
    for (const r of found) {
      expect(r).not.toHaveProperty("parameterTypes");
      expect(r).not.toHaveProperty("returnType");
      expect(r).not.toHaveProperty("sourceCodeLocation");
    }
  });

  it("links to the configured docs path and reads the table at each scan", async () => {
    const table = demoTable();
    const scanner = new RouteResourceScanner({ routes: table, restDocsPath: "/reference.html" });
    expect((await scanner.scan())[0]?.apiDocsUrl).toBe("/reference.html#app.GET%20%2Fapi%2Forders");
    table.add(app("PUT", "/api/orders/{id}"));
    expect((await scanner.scan()).map((r) => r.httpMethod)).toContain("PUT");
  });

  it("gives the same answer twice (a scan is a pure read)", async () => {
    const table = demoTable();
    expect(await scan(table)).toEqual(await scan(table));
  });

  it("tells the platform's routes from a host's by chain and feature", () => {
    expect(isPlatformRoute({ chain: "rest", feature: "app" })).toBe(true);
    expect(isPlatformRoute({ chain: undefined, feature: "identity.users-admin" })).toBe(true);
    expect(isPlatformRoute({ chain: undefined, feature: "decisions" })).toBe(true);
    expect(isPlatformRoute({ chain: undefined, feature: "app" })).toBe(false);
    expect(isPlatformRoute({ chain: undefined, feature: "orders" })).toBe(false);
    // A host feature that only starts like a platform one is the host's.
    expect(isPlatformRoute({ chain: undefined, feature: "identityverification" })).toBe(false);
  });
});
