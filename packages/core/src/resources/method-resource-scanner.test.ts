import { describe, expect, it } from "vitest";
import { Clock, ManualClock } from "../kernel/clock.js";
import { JsonLogger, Logger } from "../kernel/logger.js";
import { createPlatform } from "../kernel/platform.js";
import { authzPlugin } from "../authz/authz-plugin.js";
import { MethodSecurity } from "../authz/method/method-security.js";
import { Protectable, protectableMethodsOf } from "../authz/method/protectable.js";
import { MethodResourceScanner } from "./method-resource-scanner.js";

class OrderService {
  @Protectable({
    ownerField: "owner",
    parameterTypes: ["string"],
    returnType: "Order",
    source: "src/orders/order-service.ts",
  })
  get(id: string): { id: string; owner: string } {
    return { id, owner: "alice" };
  }

  @Protectable()
  list(): string[] {
    return [];
  }

  /** Not protectable: not a resource. */
  count(): number {
    return 0;
  }
}

class InvoiceService {
  @Protectable({
    className: "billing.InvoiceService",
    parameterTypes: ["string", "number"],
    returnType: "Promise<Invoice>",
  })
  async refund(id: string, cents: number): Promise<string> {
    return `${id}:${cents}`;
  }
}

class ArchivedOrderService extends OrderService {
  @Protectable({ parameterTypes: ["string"] })
  restore(id: string): string {
    return id;
  }
}

/** The platform's own MethodSecurity (authz plugin, in-memory defaults): the scanner reads what it registered. */
function methodSecurity(): MethodSecurity {
  const platform = createPlatform({
    plugins: [authzPlugin],
    env: {},
    register: (c) => {
      c.registerInstance(Clock, new ManualClock());
      c.registerInstance(Logger, new JsonLogger(() => {}));
    },
  });
  return platform.resolve(MethodSecurity);
}

describe("MethodResourceScanner", () => {
  it("makes a METHOD resource of each @Protectable method of registered and protected services", async () => {
    const security = methodSecurity();
    security.register(createPlatform({ plugins: [], env: {} }).container, Symbol("orders"), OrderService); // known from registration, before any instance
    security.protect(new InvoiceService()); // known once protected
    security.protect(new InvoiceService()); // once only
    const found = await new MethodResourceScanner({ services: security }).scan();
    expect(found.map((r) => r.resourceIdentifier)).toEqual([
      "OrderService.get(string)",
      "OrderService.list()",
      "billing.InvoiceService.refund(string,number)",
    ]);
    expect(found[0]).toEqual({
      resourceIdentifier: "OrderService.get(string)",
      resourceType: "METHOD",
      friendlyName: "get",
      description: "Method: OrderService.get(string)",
      serviceOwner: "OrderService",
      parameterTypes: '["string"]',
      returnType: "Order",
      sourceCodeLocation: "src/orders/order-service.ts",
      availableContextVariables: '["returnObject"]',
    });
    // Nothing declared: no return type, no location (never guessed), an empty parameter list.
    expect(found[1]).toEqual({
      resourceIdentifier: "OrderService.list()",
      resourceType: "METHOD",
      friendlyName: "list",
      description: "Method: OrderService.list()",
      serviceOwner: "OrderService",
      parameterTypes: "[]",
      availableContextVariables: '["returnObject"]',
    });
    expect(found[2]).toMatchObject({
      serviceOwner: "InvoiceService",
      parameterTypes: '["string","number"]',
      returnType: "Promise<Invoice>",
    });
  });

  it("uses the identifiers METHOD policies already match on (the interceptor's own)", async () => {
    const security = methodSecurity();
    const service = new ArchivedOrderService();
    security.protect(service);
    const found = await new MethodResourceScanner({ services: security }).scan();
    const intercepted = [...protectableMethodsOf(service).values()].map((m) => m.identifier);
    expect(found.map((r) => r.resourceIdentifier).sort()).toEqual([...intercepted].sort());
    // Inherited methods keep their declaring class's identifier; the subclass owns its own.
    expect(found.map((r) => r.resourceIdentifier)).toEqual([
      "ArchivedOrderService.restore(string)",
      "OrderService.get(string)",
      "OrderService.list()",
    ]);
  });

  it("folds two classes that declare one identifier into one resource, and finds none without services", async () => {
    const security = methodSecurity();
    expect(await new MethodResourceScanner({ services: security }).scan()).toEqual([]);
    security.protect(new OrderService());
    security.protect(new ArchivedOrderService());
    const found = await new MethodResourceScanner({ services: security }).scan();
    expect(found.filter((r) => r.resourceIdentifier === "OrderService.get(string)")).toHaveLength(1);
  });
});
