import { describe, expect, it } from "vitest";
import { copySessionData, frozenSessionData } from "./session-data-copy.js";

const authentication = {
  userId: "u1",
  username: "alice",
  authorities: ["ROLE_USER", "ROLE_ADMIN"],
  method: "form",
  authenticatedAt: 1_700_000_000_000,
  factors: [
    { type: "pwd", at: 1 },
    { type: "otp", at: 2 },
  ],
};

describe("copySessionData", () => {
  it("copies plain data deeply: equal to structuredClone's copy, sharing nothing with the original", () => {
    const data: Record<string, unknown> = {
      "platform.securityContext": authentication,
      csrf: "t0k3n",
      n: -0,
      nan: Number.NaN,
      big: 10n,
      nothing: null,
      missing: undefined,
      nested: { list: [[1, 2], [{ deep: true }], []] },
    };
    const copy = copySessionData(data);
    expect(copy).toStrictEqual(structuredClone(data));
    expect(Object.is(copy.n, -0)).toBe(true);
    expect(Object.keys(copy)).toEqual(Object.keys(data));
    (copy["platform.securityContext"] as { authorities: string[] }).authorities.push("ROLE_ROOT");
    (copy.nested as { list: { deep: boolean }[][] }).list[1]![0]!.deep = false;
    expect(data["platform.securityContext"]).toEqual(authentication);
    expect(authentication.authorities).toEqual(["ROLE_USER", "ROLE_ADMIN"]);
    expect((data.nested as { list: { deep: boolean }[][] }).list[1]![0]!.deep).toBe(true);
  });

  it("leaves what plain copying would get wrong to structuredClone", () => {
    const shared = { id: 1 };
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const sparse: number[] = [1];
    sparse[2] = 3;
    const extra = Object.assign([1, 2], { note: "x" });
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    for (const data of [
      { when: new Date(5), map: new Map([["k", 1]]), bytes: new Uint8Array([1, 2]) },
      { a: shared, b: shared },
      { cyclic },
      { sparse, extra },
      { bare },
      { deep: JSON.parse(`${"[".repeat(40)}1${"]".repeat(40)}`) as unknown },
    ]) {
      const copy = copySessionData(data);
      expect(copy).toStrictEqual(structuredClone(data));
    }
    const copy = copySessionData({ a: shared, b: shared });
    expect(copy.a).toBe(copy.b);
    expect(copy.a).not.toBe(shared);
    const loop = copySessionData({ cyclic }).cyclic as Record<string, unknown>;
    expect(loop.self).toBe(loop);
    expect(1 in (copySessionData({ sparse }).sparse as unknown[])).toBe(false);
  });

  it("refuses what structuredClone refuses, with its error", () => {
    expect(() => copySessionData({ fn: () => 1 })).toThrow(
      expect.objectContaining({ name: "DataCloneError" }),
    );
    expect(() => copySessionData({ s: Symbol("x") })).toThrow(
      expect.objectContaining({ name: "DataCloneError" }),
    );
  });
});

describe("copySessionData and an own __proto__ key", () => {
  it("keeps it a property, as structuredClone does, never the copy's prototype", () => {
    const data = JSON.parse('{"ctx":{"__proto__":{"isAdmin":true},"username":"eve"}}') as Record<
      string,
      unknown
    >;
    const copy = copySessionData(data) as { ctx: Record<string, unknown> };
    const cloned = structuredClone(data) as { ctx: Record<string, unknown> };
    expect(Object.keys(copy.ctx)).toEqual(Object.keys(cloned.ctx));
    expect(Object.getPrototypeOf(copy.ctx)).toBe(Object.prototype);
    expect((copy.ctx as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(copy.ctx, "__proto__")?.value).toEqual({ isAdmin: true });
  });
});

describe("frozenSessionData", () => {
  it("is copySessionData's copy, frozen all the way down and sharing nothing with the original", () => {
    const data: Record<string, unknown> = {
      "platform.securityContext": authentication,
      nested: { list: [[1], [{ deep: true }]] },
      evil: JSON.parse('{"__proto__":{"isAdmin":true}}') as unknown,
    };
    const frozen = frozenSessionData(data)!;
    expect(frozen).toStrictEqual(copySessionData(data));
    const objects: object[] = [];
    const walk = (value: unknown): void => {
      if (typeof value !== "object" || value === null) return;
      objects.push(value);
      for (const item of Object.values(value)) walk(item);
    };
    walk(frozen);
    expect(objects.length).toBe(13);
    expect(objects.every((o) => Object.isFrozen(o))).toBe(true);
    expect(frozen["platform.securityContext"]).not.toBe(authentication);
    expect(Object.isFrozen(authentication) || Object.isFrozen(authentication.factors)).toBe(false);
    expect(() =>
      (frozen["platform.securityContext"] as { authorities: string[] }).authorities.push("ROLE_ROOT"),
    ).toThrow(TypeError);
  });

  it("answers undefined for data that is not plain (never shared: a Date or a Map stays changeable)", () => {
    const shared = { id: 1 };
    for (const data of [
      { when: new Date(5) },
      { map: new Map() },
      { a: shared, b: shared },
      { fn: () => 1 },
    ]) {
      expect(frozenSessionData(data)).toBeUndefined();
    }
  });
});
