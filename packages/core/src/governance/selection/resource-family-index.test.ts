import { describe, expect, it } from "vitest";
import { RecordingLogger } from "../../identity/tokens/token-service.test-support.js";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryManagedResourceRepository } from "../../resources/in-memory-managed-resource-repository.js";
import { RouteTable } from "../../web/route-table.js";
import { buildCatalog, CountingIds, V19, V20 } from "../governance.fixture.js";
import { PLATFORM_GLOBAL_SCOPE as GLOBAL, type ReleaseRow } from "../registry/release-registry.js";
import type { ReleaseSnapshot } from "./release-snapshots.js";
import { ResourceFamilyIndex } from "./resource-family-index.js";
import { rowOf } from "./selection.fixture.js";

const snapshotOf = (rows: ReleaseRow[]): ReleaseSnapshot => ({
  readAt: 0,
  scopes: new Map([[GLOBAL, rows]]),
});

describe("ResourceFamilyIndex", () => {
  it("reads the managed resources only while a CANARY release lists families, and keeps the last owners through an outage", async () => {
    const catalog = buildCatalog();
    const routes = new RouteTable().add({
      method: "HEAD",
      path: "/api/orders",
      name: "orders.head",
      description: "",
      feature: "app.orders",
      access: "chain-rules",
      handler: () => undefined,
    });
    const store = new InMemoryManagedResourceRepository({
      clock: new ManualClock(0),
      ids: new CountingIds(),
    });
    await store.create({
      resourceIdentifier: "/api/orders",
      resourceType: "URL",
      httpMethod: "GET",
      friendlyName: "orders",
      description: "",
      serviceOwner: "OrderService",
      status: "NEEDS_DEFINITION",
      editedFields: [],
      named: false,
    });
    let reads = 0;
    let down = false;
    const resources = {
      findAll: () => {
        reads++;
        return down ? Promise.reject(new Error("store down")) : store.findAll();
      },
    };
    const logger = new RecordingLogger();
    const index = new ResourceFamilyIndex({ routes, resources, logger });
    const plain = snapshotOf([rowOf(catalog, GLOBAL, V19, "ACTIVE"), rowOf(catalog, GLOBAL, V20, "CANARY")]);
    const narrowed = snapshotOf([
      rowOf(catalog, GLOBAL, V20, "CANARY", { canaryResourceFamilies: ["OrderService"] }),
    ]);
    await index.refresh(plain);
    expect(reads).toBe(0);
    expect(index.familyOf("HEAD", "/api/orders")).toBe("app.orders");
    await index.refresh(narrowed);
    expect(reads).toBe(1);
    // The scanner folds a HEAD route into its GET resource.
    expect(index.familyOf("HEAD", "/api/orders/")).toBe("OrderService");
    down = true;
    await index.refresh(narrowed);
    await index.refresh(narrowed);
    expect(index.familyOf("HEAD", "/api/orders")).toBe("OrderService");
    expect(logger.lines.filter((l) => l.level === "error")).toHaveLength(1);
    await index.refresh(plain);
    expect(reads).toBe(3);
    expect(index.familyOf("HEAD", "/api/orders")).toBe("app.orders");
    expect(new ResourceFamilyIndex({ logger }).familyOf("GET", "/api/orders")).toBeUndefined();
  });
});
