import { describe, expect, it } from "vitest";
import { type Clock, ManualClock } from "../kernel/clock.js";
import { codeOf } from "../kernel/error-code.test-support.js";
import type { NewManagedResource } from "./managed-resource.js";
import type { ManagedResourceRepository } from "./managed-resource-repository.js";

const url = (
  path: string,
  httpMethod: NewManagedResource["httpMethod"],
  extra: Partial<NewManagedResource> = {},
) =>
  ({
    resourceIdentifier: path,
    resourceType: "URL",
    httpMethod,
    friendlyName: "list",
    description: `URL: [${httpMethod}] ${path}`,
    serviceOwner: "orders",
    status: "NEEDS_DEFINITION",
    editedFields: [],
    named: false,
    ...extra,
  }) as NewManagedResource;

const method = (identifier: string, extra: Partial<NewManagedResource> = {}): NewManagedResource => ({
  resourceIdentifier: identifier,
  resourceType: "METHOD",
  friendlyName: "get",
  description: "Reads an order",
  serviceOwner: "OrderService",
  parameterTypes: '["string"]',
  returnType: "Order",
  sourceCodeLocation: "demo/order-service.ts",
  status: "NEEDS_DEFINITION",
  editedFields: [],
  named: false,
  ...extra,
});

async function rejection(promise: Promise<unknown>): Promise<{ code: string; reason: unknown }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  const code = await codeOf(error === undefined ? Promise.resolve() : Promise.reject(error));
  return { code, reason: (error as { details?: { reason?: unknown } } | undefined)?.details?.reason };
}

/**
 * The behaviour every ManagedResourceRepository adapter must show. `factory` returns a fresh, empty
 * store reading time from `clock`.
 */
export function describeManagedResourceRepositoryContract(
  name: string,
  factory: (clock: Clock) => Promise<ManagedResourceRepository> | ManagedResourceRepository,
): void {
  describe(`ManagedResourceRepository contract: ${name}`, () => {
    const setup = async () => {
      const clock = new ManualClock(70_000);
      return { clock, store: await factory(clock) };
    };

    it("creates with a fresh id, version 1 and timestamps, and finds it by id and by key", async () => {
      const { store } = await setup();
      const created = await store.create(url("/api/orders", "GET"));
      expect(created).toMatchObject({
        ...url("/api/orders", "GET"),
        version: 1,
        createdAt: 70_000,
        updatedAt: 70_000,
      });
      expect(typeof created.id).toBe("string");
      expect(await store.findById(created.id)).toEqual(created);
      expect(
        await store.findByKey({ resourceType: "URL", resourceIdentifier: "/api/orders", httpMethod: "GET" }),
      ).toEqual(created);
      expect(await store.findById("nope")).toBeUndefined();
      expect(
        await store.findByKey({ resourceType: "URL", resourceIdentifier: "/api/orders", httpMethod: "POST" }),
      ).toBeUndefined();
    });

    it("keeps a METHOD resource without an HTTP method and a URL one without a given method as ANY", async () => {
      const { store } = await setup();
      const m = await store.create(method("OrderService.get(string)"));
      expect("httpMethod" in m).toBe(false);
      const any = await store.create(url("/api/any", undefined));
      expect(any.httpMethod).toBe("ANY");
      expect(await store.findByKey({ resourceType: "URL", resourceIdentifier: "/api/any" })).toEqual(any);
      expect(
        await store.findByKey({ resourceType: "METHOD", resourceIdentifier: "OrderService.get(string)" }),
      ).toEqual(m);
    });

    it("refuses a second resource with the same type, identifier and method (CONFLICT duplicate)", async () => {
      const { store } = await setup();
      await store.create(url("/api/orders", "GET"));
      expect(await rejection(store.create(url("/api/orders", "GET", { friendlyName: "x" })))).toEqual({
        code: "CONFLICT",
        reason: "duplicate",
      });
      await store.create(url("/api/orders", "POST"));
      await store.create(method("OrderService.get(string)"));
      expect(await rejection(store.create(method("OrderService.get(string)")))).toEqual({
        code: "CONFLICT",
        reason: "duplicate",
      });
      expect((await store.findAll()).length).toBe(3);
    });

    it("updates by compare-and-set: bumps the version, sets updatedAt, removes fields given null", async () => {
      const { clock, store } = await setup();
      const created = await store.create(url("/api/orders", "GET", { missingSince: 1 }));
      clock.advance(5);
      const permission = {
        id: "p-1",
        name: "orders.list",
        description: "List",
        createdAt: 70_005,
        createdBy: "admin",
      };
      const updated = await store.update(created.id, 1, {
        status: "PERMISSION_CREATED",
        permission,
        missingSince: null,
        editedFields: ["friendlyName"],
      });
      expect(updated).toMatchObject({
        status: "PERMISSION_CREATED",
        permission,
        version: 2,
        updatedAt: 70_005,
      });
      expect(updated.createdAt).toBe(70_000);
      expect("missingSince" in updated).toBe(false);
      expect(await store.findById(created.id)).toEqual(updated);
    });

    it("lets one of two writers at the same version win; the other gets CONFLICT version and changes nothing", async () => {
      const { store } = await setup();
      const created = await store.create(url("/api/orders", "GET"));
      const results = await Promise.allSettled([
        store.update(created.id, 1, { status: "PERMISSION_CREATED", friendlyName: "A" }),
        store.update(created.id, 1, { status: "EXCLUDED", friendlyName: "B" }),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(await rejection(Promise.reject(lost.reason))).toEqual({ code: "CONFLICT", reason: "version" });
      const now = await store.findById(created.id);
      expect(now?.version).toBe(2);
      const winner = (
        results.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<{ friendlyName: string }>
      ).value;
      expect(now?.friendlyName).toBe(winner.friendlyName);
    });

    it("answers NOT_FOUND for an update of an unknown id and never changes a resource's identity", async () => {
      const { store } = await setup();
      expect((await rejection(store.update("nope", 1, { status: "EXCLUDED" }))).code).toBe("NOT_FOUND");
      const created = await store.create(url("/api/orders", "GET"));
      const sneaky = { resourceIdentifier: "/admin", httpMethod: "ANY" } as never;
      const updated = await store.update(created.id, 1, sneaky);
      expect(updated).toMatchObject({ resourceIdentifier: "/api/orders", httpMethod: "GET" });
    });

    it("hands out copies: mutating a returned record changes nothing stored", async () => {
      const { store } = await setup();
      const created = (await store.create(url("/api/orders", "GET"))) as unknown as {
        friendlyName: string;
        editedFields: string[];
      };
      created.friendlyName = "changed";
      created.editedFields.push("description");
      const again = await store.findAll();
      expect(again[0]).toMatchObject({ friendlyName: "list", editedFields: [] });
    });

    describe("list", () => {
      const seed = async (store: ManagedResourceRepository) => {
        await store.create(
          url("/api/orders/{id}", "DELETE", { friendlyName: "Cancel an order", status: "EXCLUDED" }),
        );
        await store.create(url("/api/orders", "GET", { description: "Lists ORDERS (.*)" }));
        await store.create(url("/api/customers", "GET", { serviceOwner: "customers" }));
        await store.create(method("OrderService.get(string)", { status: "PERMISSION_CREATED" }));
      };

      it("filters by status, type, owner and a case-insensitive plain substring, in key order", async () => {
        const { store } = await setup();
        await seed(store);
        const ids = async (filter: Parameters<ManagedResourceRepository["list"]>[0]) =>
          (await store.list(filter)).items.map((r) => `${r.httpMethod ?? "-"} ${r.resourceIdentifier}`);
        expect(await ids({})).toEqual([
          "- OrderService.get(string)",
          "GET /api/customers",
          "GET /api/orders",
          "DELETE /api/orders/{id}",
        ]);
        expect(await ids({ status: "EXCLUDED" })).toEqual(["DELETE /api/orders/{id}"]);
        expect(await ids({ resourceType: "METHOD" })).toEqual(["- OrderService.get(string)"]);
        expect(await ids({ serviceOwner: "customers" })).toEqual(["GET /api/customers"]);
        expect(await ids({ text: "CANCEL" })).toEqual(["DELETE /api/orders/{id}"]);
        expect(await ids({ text: "orderservice" })).toEqual(["- OrderService.get(string)"]);
        // Pattern characters are plain text: `.*` matches only where `.*` is written.
        expect(await ids({ text: "(.*)" })).toEqual(["GET /api/orders"]);
        expect(await ids({ text: ".*" })).toEqual(["GET /api/orders"]);
        expect(await ids({ text: "a+" })).toEqual([]);
        expect(await ids({ resourceType: "URL", text: "orders", status: "NEEDS_DEFINITION" })).toEqual([
          "GET /api/orders",
        ]);
      });

      it("pages with offset and limit, counts the total, and refuses pages out of bounds", async () => {
        const { store } = await setup();
        await seed(store);
        const page = await store.list({}, { offset: 1, limit: 2 });
        expect(page.total).toBe(4);
        expect(page.items.map((r) => r.resourceIdentifier)).toEqual(["/api/customers", "/api/orders"]);
        expect((await store.list({}, { offset: 10 })).items).toEqual([]);
        expect((await store.list({ status: "EXCLUDED" }, { limit: 0 })).total).toBe(1);
        for (const bad of [{ limit: 201 }, { limit: -1 }, { offset: -1 }, { limit: 1.5 }]) {
          expect((await rejection(store.list({}, bad))).code).toBe("VALIDATION_FAILED");
        }
      });
    });
  });
}
