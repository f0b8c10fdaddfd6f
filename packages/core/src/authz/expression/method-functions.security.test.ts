import { describe, expect, it } from "vitest";
import { isOwner } from "./method-functions.js";
import { testContext, testUser } from "./test-context.js";

describe("isOwner: hostile owner fields and return objects", () => {
  const check = (returnObject: unknown, ownerField: string, username = "alice") =>
    isOwner(testContext({ authentication: { ...testUser(), username }, returnObject, ownerField }));

  it.each(["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "prototype"])(
    "a prototype member %s never matches",
    (field) => {
      expect(check({}, field)).toBe(false);
      expect(check({}, field, "[object Object]")).toBe(false);
      expect(check({}, field, "function Object() { [native code] }")).toBe(false);
    },
  );

  it("an empty owner never matches a user with an empty name", () => {
    expect(check({ owner: "" }, "owner", "")).toBe(false);
  });

  it("objects and arrays that stringify to the username do not match", () => {
    expect(check({ owner: { toString: () => "alice" } }, "owner")).toBe(false);
    expect(check({ owner: ["alice"] }, "owner")).toBe(false);
    expect(check({ owner: Number.NaN }, "owner", "NaN")).toBe(false);
  });

  it("a function return value is not an entity", () => {
    const fn = Object.assign(() => undefined, { owner: "alice" });
    expect(check(fn, "owner")).toBe(false);
  });
});
