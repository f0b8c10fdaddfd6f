import { describe, expect, it } from "vitest";
import { methodIdentifier, Protectable, protectableMethodsOf } from "./protectable.js";

class OrderService {
  @Protectable()
  list(): string[] {
    return [];
  }

  @Protectable({ parameterTypes: ["string", "number"], ownerField: "owner" })
  get(id: string, version: number): { id: string; version: number; owner: string } {
    return { id, version, owner: "alice" };
  }

  count(): number {
    return 0;
  }
}

class QualifiedService {
  @Protectable({ className: "shop.OrderService", parameterTypes: ["string"] })
  find(id: string): string {
    return id;
  }
}

class ArchivedOrderService extends OrderService {
  @Protectable({ parameterTypes: ["string"] })
  restore(id: string): string {
    return id;
  }

  // Redeclared: the subclass's identifier and options replace the parent's.
  @Protectable({ parameterTypes: ["string", "number"] })
  override get(id: string, version: number): { id: string; version: number; owner: string } {
    return { id, version, owner: "archive" };
  }

  // Overridden without the decorator: still protected, under the declaring class's identifier.
  override list(): string[] {
    return ["archived"];
  }
}

describe("methodIdentifier", () => {
  it("is <Class>.<method>(<types>) with the types joined by commas and no spaces", () => {
    expect(methodIdentifier("OrderService", "list")).toBe("OrderService.list()");
    expect(methodIdentifier("OrderService", "get", ["string", "number"])).toBe(
      "OrderService.get(string,number)",
    );
  });
});

describe("protectableMethodsOf", () => {
  it("names each decorated method from the class name and the declared parameter types", () => {
    const methods = protectableMethodsOf(new OrderService());
    expect([...methods.keys()].sort()).toEqual(["get", "list"]);
    expect(methods.get("list")).toEqual({ identifier: "OrderService.list()", methodName: "list" });
    expect(methods.get("get")).toEqual({
      identifier: "OrderService.get(string,number)",
      methodName: "get",
      ownerField: "owner",
    });
  });

  it("leaves undecorated methods out", () => {
    expect(protectableMethodsOf(new OrderService()).has("count")).toBe(false);
  });

  it("uses className instead of the class name when given (a qualified name fits)", () => {
    expect(protectableMethodsOf(new QualifiedService()).get("find")?.identifier).toBe(
      "shop.OrderService.find(string)",
    );
  });

  it("answers an empty map for an instance without decorated methods", () => {
    expect(protectableMethodsOf(new (class Plain {})()).size).toBe(0);
    expect(protectableMethodsOf({ list: () => [] }).size).toBe(0);
  });

  it("collects the class chain: inherited declarations keep the declaring class's identifier", () => {
    const methods = protectableMethodsOf(new ArchivedOrderService());
    expect([...methods.keys()].sort()).toEqual(["get", "list", "restore"]);
    expect(methods.get("restore")?.identifier).toBe("ArchivedOrderService.restore(string)");
    expect(methods.get("list")?.identifier).toBe("OrderService.list()");
  });

  it("lets a subclass's own declaration win over its parent's", () => {
    const get = protectableMethodsOf(new ArchivedOrderService()).get("get");
    expect(get).toEqual({ identifier: "ArchivedOrderService.get(string,number)", methodName: "get" });
  });

  it("does not leak a subclass's declarations into its parent", () => {
    expect(protectableMethodsOf(new OrderService()).has("restore")).toBe(false);
  });

  it("copies the options, so changing them after decoration changes nothing", () => {
    const options: { ownerField?: string } = { ownerField: "owner" };
    class Later {
      @Protectable(options)
      read(): null {
        return null;
      }
    }
    options.ownerField = "someoneElse";
    expect(protectableMethodsOf(new Later()).get("read")?.ownerField).toBe("owner");
  });
});

describe("@Protectable", () => {
  it("refuses a symbol-named method", () => {
    const decorate = Protectable();
    const key = Symbol("secret");
    expect(() => decorate({}, key, { value: () => undefined })).toThrow(TypeError);
  });
});
