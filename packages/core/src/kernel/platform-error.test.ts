import { describe, expect, it } from "vitest";
import { PlatformError, isPlatformError } from "./platform-error.js";

describe("PlatformError", () => {
  it("carries code, details and cause", () => {
    const cause = new Error("driver");
    const e = new PlatformError("CONFLICT", "Stale version", { cause, details: { id: "1" } });
    expect(e.code).toBe("CONFLICT");
    expect(e.details).toEqual({ id: "1" });
    expect(e.cause).toBe(cause);
    expect(e).toBeInstanceOf(Error);
  });

  it("is recognised by brand, not by class identity", () => {
    const foreign = Object.assign(new Error("x"), { code: "CONFLICT" });
    Object.defineProperty(foreign, Symbol.for("platform.PlatformError"), { value: true });
    expect(isPlatformError(foreign)).toBe(true);
    expect(isPlatformError(new Error("x"))).toBe(false);
    expect(isPlatformError({ code: "CONFLICT" })).toBe(false);
    expect(isPlatformError(null)).toBe(false);
  });
});
