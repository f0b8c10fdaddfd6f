import { describe, expect, it, vi } from "vitest";
import { compileExpression } from "./expression-compiler.js";
import { testContext, testUser } from "./test-context.js";

const alice = testUser("ROLE_USER"); // username alice, userId u-1

describe("hasPermission", () => {
  it("asks the context's permission evaluator", () => {
    const hasPermission = vi.fn(
      (resource: string, action: string) => resource === "doc" && action === "read",
    );
    const expression = compileExpression("hasPermission('doc', 'read')");
    expect(expression.evaluate(testContext({ hasPermission }))).toBe(true);
    expect(compileExpression("hasPermission('doc', 'write')").evaluate(testContext({ hasPermission }))).toBe(
      false,
    );
    expect(hasPermission).toHaveBeenCalledWith("doc", "read");
  });

  it("is false without an evaluator (URL evaluation)", () => {
    expect(compileExpression("hasPermission('doc', 'read')").evaluate(testContext())).toBe(false);
  });

  it("counts only a true boolean", () => {
    const truthy = (() => "yes") as unknown as (resource: string, action: string) => boolean;
    expect(
      compileExpression("hasPermission('doc', 'read')").evaluate(testContext({ hasPermission: truthy })),
    ).toBe(false);
  });
});

describe("#ownership.isOwner(authentication, returnObject)", () => {
  const isOwner = compileExpression("#ownership.isOwner(authentication, returnObject)");
  const as = (returnObject: unknown, ownerField: string | undefined = "owner", authentication = alice) =>
    isOwner.evaluate(testContext({ authentication, returnObject, ownerField }));

  it.each([
    ["owner is the username", { owner: "alice" }, true],
    ["owner is the user id", { owner: "u-1" }, true],
    ["owner is someone else", { owner: "bob" }, false],
    ["owner differs in case", { owner: "Alice" }, false],
    ["owner field missing", { other: "alice" }, false],
    ["owner field null", { owner: null }, false],
    ["numeric owner of another user", { owner: 7 }, false],
  ])("%s → %s", (_, returnObject, expected) => {
    expect(as(returnObject)).toBe(expected);
  });

  it("compares numeric owner ids as strings", () => {
    const numericUser = { ...alice, userId: "42" };
    expect(as({ owner: 42 }, "owner", numericUser)).toBe(true);
  });

  it("reads getters of entity classes", () => {
    class Order {
      readonly #owner = "alice";
      get owner() {
        return this.#owner;
      }
    }
    expect(as(new Order())).toBe(true);
  });

  it("is false when anonymous, without a return object or without an owner field", () => {
    expect(isOwner.evaluate(testContext({ returnObject: { owner: "alice" }, ownerField: "owner" }))).toBe(
      false,
    );
    expect(as(undefined)).toBe(false);
    expect(as(null)).toBe(false);
    expect(as("alice")).toBe(false);
    expect(isOwner.evaluate(testContext({ authentication: alice, returnObject: { owner: "alice" } }))).toBe(
      false,
    );
    expect(as({ owner: "alice" }, "")).toBe(false);
  });
});
