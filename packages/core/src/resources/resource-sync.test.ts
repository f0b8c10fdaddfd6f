import { describe, expect, it } from "vitest";
import { ROOT } from "../authz/policy/policy.fixture.js";
import { nameResources } from "./resource-naming-run.js";
import { ResourceSync } from "./resource-sync.js";
import { resourcesSetup } from "./resources.fixture.js";
import type { ResourceName, ResourceNaming, ResourceScanner, ScannedResource } from "./scanned-resource.js";

/** A scanner over a list the test changes between runs (a real ResourceScanner, not a mock). */
class ListScanner implements ResourceScanner {
  constructor(
    readonly name: string,
    public found: ScannedResource[],
  ) {}
  async scan(): Promise<readonly ScannedResource[]> {
    return this.found;
  }
}

class BrokenScanner implements ResourceScanner {
  readonly name = "broken";
  async scan(): Promise<readonly ScannedResource[]> {
    throw new Error("reflection failed");
  }
}

/** Names every resource "Named <identifier>", recording what it was asked. */
class RecordingNaming implements ResourceNaming {
  asked: string[] = [];
  async nameAll(resources: readonly ScannedResource[]): Promise<readonly ResourceName[]> {
    this.asked.push(...resources.map((r) => r.resourceIdentifier));
    return resources.map((r) => ({ friendlyName: `Named ${r.resourceIdentifier}`, description: "proposed" }));
  }
}

const route = (path: string, method: ScannedResource["httpMethod"], extra: Partial<ScannedResource> = {}) =>
  ({
    resourceIdentifier: path,
    resourceType: "URL",
    httpMethod: method,
    friendlyName: "handler",
    description: `URL: [${method}] ${path}`,
    serviceOwner: "orders",
    apiDocsUrl: "/docs/index.html#orders.list",
    ...extra,
  }) as ScannedResource;
const method: ScannedResource = {
  resourceIdentifier: "OrderService.get(string)",
  resourceType: "METHOD",
  friendlyName: "get",
  description: "OrderService.get",
  serviceOwner: "OrderService",
  parameterTypes: '["string"]',
  returnType: "Order",
};

function syncSetup(...scanners: ResourceScanner[]) {
  const s = resourcesSetup();
  const sync = new ResourceSync({
    repository: s.repository,
    scanners: () => scanners,
    audit: s.audit,
    clock: s.clock,
    logger: s.logger,
  });
  const byId = async () => new Map((await s.repository.findAll()).map((r) => [r.resourceIdentifier, r]));
  return { ...s, sync, byId };
}

describe("ResourceSync", () => {
  it("enters new resources of every scanner as NEEDS_DEFINITION, and reports it", async () => {
    const { sync, byId, audited } = syncSetup(
      new ListScanner("routes", [route("/api/orders", "GET"), route("/api/orders", "POST")]),
      new ListScanner("methods", [method]),
    );
    expect(await sync.run()).toEqual({
      created: 3,
      updated: 0,
      unchanged: 0,
      vanished: 0,
      failedScanners: [],
    });
    const all = await byId();
    expect(all.get("OrderService.get(string)")).toMatchObject({
      ...method,
      status: "NEEDS_DEFINITION",
      named: false,
    });
    expect(audited("resource.synced")).toHaveLength(1);
  });

  it("keeps status, permission and an administrator's edits; refreshes the other scanned fields", async () => {
    const scanner = new ListScanner("routes", [route("/api/orders", "GET")]);
    const { sync, service, repository, byId } = syncSetup(scanner);
    await sync.run();
    const r = (await byId()).get("/api/orders")!;
    await service.define(r.id, { friendlyName: "List orders" }, ROOT);
    scanner.found = [
      route("/api/orders", "GET", { friendlyName: "listOrders2", description: "new", apiDocsUrl: "/d#x" }),
    ];
    expect(await sync.run()).toMatchObject({ updated: 1 });
    const after = await repository.findById(r.id);
    expect(after).toMatchObject({
      status: "PERMISSION_CREATED",
      permission: { name: "List orders" },
      friendlyName: "List orders",
      description: "new",
      apiDocsUrl: "/d#x",
    });
    expect(await sync.run()).toMatchObject({ updated: 0, unchanged: 1 });
  });

  it("marks vanished resources missingSince, never deletes them, and clears the mark when they come back", async () => {
    const scanner = new ListScanner("routes", [route("/api/a", "GET"), route("/api/b", "GET")]);
    const { sync, clock, byId } = syncSetup(scanner);
    await sync.run();
    scanner.found = [route("/api/a", "GET")];
    clock.advance(60_000);
    expect(await sync.run()).toMatchObject({ vanished: 1, unchanged: 1 });
    expect((await byId()).get("/api/b")).toMatchObject({
      missingSince: 1_060_000,
      status: "NEEDS_DEFINITION",
    });
    expect(await sync.run()).toMatchObject({ vanished: 0 });
    scanner.found = [route("/api/a", "GET"), route("/api/b", "GET")];
    await sync.run();
    expect((await byId()).get("/api/b")?.missingSince).toBeUndefined();
  });

  it("marks nothing vanished when a scanner throws, and audits the failure", async () => {
    const scanner = new ListScanner("routes", [route("/api/a", "GET")]);
    const { sync, byId, audited, logger } = syncSetup(scanner, new BrokenScanner());
    scanner.found = [];
    expect(await sync.run()).toMatchObject({ vanished: 0, failedScanners: ["broken"] });
    expect(await byId()).toEqual(new Map());
    expect(audited("resource.scan-failed")).toHaveLength(1);
    expect(logger.lines.some((l) => l.level === "error" && l.fields?.scanner === "broken")).toBe(true);
  });

  it("takes the first scanner's description of a resource two scanners find", async () => {
    const { sync, byId } = syncSetup(
      new ListScanner("one", [route("/api/a", "GET", { serviceOwner: "first" })]),
      new ListScanner("two", [route("/api/a", "GET", { serviceOwner: "second" })]),
    );
    expect(await sync.run()).toMatchObject({ created: 1 });
    expect((await byId()).get("/api/a")?.serviceOwner).toBe("first");
  });
});

describe("nameResources (the background naming after a sync)", () => {
  it("names what still needs it, keeps fields an administrator set, and asks only once", async () => {
    const { sync, service, repository, logger, byId } = syncSetup(
      new ListScanner("routes", [route("/api/a", "GET"), route("/api/b", "GET"), route("/api/c", "GET")]),
    );
    await sync.run();
    const before = await byId();
    await service.define(before.get("/api/b")!.id, { friendlyName: "Mine" }, ROOT);
    await service.define(before.get("/api/c")!.id, { friendlyName: "Mine too", description: "set" }, ROOT);
    const naming = new RecordingNaming();
    expect(await nameResources({ repository, naming, logger })).toBe(2);
    expect(naming.asked).toEqual(["/api/a", "/api/b"]);
    const after = await byId();
    expect(after.get("/api/a")).toMatchObject({
      friendlyName: "Named /api/a",
      description: "proposed",
      named: true,
    });
    expect(after.get("/api/b")).toMatchObject({ friendlyName: "Mine", description: "proposed", named: true });
    expect(await nameResources({ repository, naming, logger })).toBe(0);
    // A later sync does not put the scanner's name back over the proposed one.
    await sync.run();
    expect((await byId()).get("/api/a")?.friendlyName).toBe("Named /api/a");
  });

  it("drops empty, over-long or non-string proposals and survives a namer that throws", async () => {
    const { sync, repository, logger, byId } = syncSetup(
      new ListScanner("routes", [route("/api/a", "GET"), route("/api/b", "GET"), route("/api/c", "GET")]),
    );
    await sync.run();
    const bad: ResourceNaming = {
      nameAll: async () => [
        { friendlyName: " ", description: "x" },
        { friendlyName: "x".repeat(201), description: "x" },
        { friendlyName: 7 as unknown as string, description: "x" },
      ],
    };
    expect(await nameResources({ repository, naming: bad, logger })).toBe(0);
    expect([...(await byId()).values()].every((r) => r.friendlyName === "handler" && !r.named)).toBe(true);
    const throwing: ResourceNaming = {
      nameAll: async () => {
        throw new Error("down");
      },
    };
    expect(await nameResources({ repository, naming: throwing, logger })).toBe(0);
  });
});
