import { buildDemoPlatform } from "@keyward/cli";
import type { Platform } from "@keyward/core";
import { Logger } from "@keyward/core/ports";
import { RouteTable } from "@keyward/core/web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CapturingLogger } from "../../packages/adapters-http/src/test-support.js";
import { isPlatformRoute } from "../../packages/core/src/resources/route-resource-scanner.js";
import { ResourceScanner, type ScannedResource } from "../../packages/core/src/resources/scanned-resource.js";
import { LOW_COST_SCRYPT } from "../support/low-cost-scrypt.js";

// The two scanners as the authz plugin registers them (members of the ResourceScanner family), over
// the demo platform: its route table (chains, admin APIs, /health, /js/**, the demo's own routes)
// and its method-protected OrderService.

describe("the resource scanners over the demo platform", () => {
  let platform: Platform;
  let found: Map<string, readonly ScannedResource[]>;
  beforeAll(async () => {
    ({ platform } = await buildDemoPlatform(
      {
        properties: { ...LOW_COST_SCRYPT },
        register: (c) => c.registerInstance(Logger, new CapturingLogger()),
      },
      {},
    ));
    const scanners = platform.container.resolveAll(ResourceScanner);
    found = new Map(await Promise.all(scanners.map(async (s) => [s.name, await s.scan()] as const)));
  }, 60_000);
  afterAll(() => platform.stop());

  it("registers the route and method scanners", () => {
    expect([...found.keys()]).toEqual(["routes", "methods"]);
  });

  it("finds the demo's own routes as URL resources and none of the platform's", () => {
    const urls = found.get("routes")!.map((r) => `${r.httpMethod} ${r.resourceIdentifier}`);
    expect(urls).toEqual([
      "GET /",
      "GET /account/security",
      "GET /api/account/security",
      "POST /account/security",
      "POST /api/account/security",
      "GET /admin",
      "GET /admin/api/audit",
      "GET /api/orders",
      "POST /api/orders",
      "GET /api/orders/{id}",
      "DELETE /api/orders/{id}",
    ]);
    const table = platform.resolve(RouteTable);
    const skipped = table.list().filter((r) => !urls.includes(`${r.method} ${r.path}`));
    expect(skipped.length).toBeGreaterThan(100);
    expect(skipped.every(isPlatformRoute)).toBe(true);
    expect(found.get("routes")!.find((r) => r.httpMethod === "DELETE")).toEqual({
      resourceIdentifier: "/api/orders/{id}",
      resourceType: "URL",
      httpMethod: "DELETE",
      friendlyName: "orders.cancel",
      description: "URL: [DELETE] /api/orders/{id}",
      serviceOwner: "app",
      apiDocsUrl: "/docs/index.html#orders.cancel",
      availableContextVariables: '["id"]',
    });
  });

  it("finds OrderService.get(string), the identifier the demo's METHOD policies name", () => {
    expect(found.get("methods")).toEqual([
      {
        resourceIdentifier: "OrderService.get(string)",
        resourceType: "METHOD",
        friendlyName: "get",
        description: "Method: OrderService.get(string)",
        serviceOwner: "OrderService",
        parameterTypes: '["string"]',
        returnType: "DemoOrder",
        sourceCodeLocation: "packages/cli/src/demo-orders.ts",
        availableContextVariables: '["returnObject"]',
      },
    ]);
  });
});
