import { describe, expect, it } from "vitest";
import * as errors from "./errors.js";
import * as root from "./index.js";
import * as ports from "./ports.js";
import * as testing from "./testing.js";

/** `name: kind` for every value a module exports (types are erased and cannot be listed here). */
function surface(mod: Record<string, unknown>): string[] {
  return Object.keys(mod)
    .sort()
    .map((name) => `${name}: ${kindOf(mod[name])}`);
}

function kindOf(value: unknown): string {
  if (typeof value === "function") {
    return /^class[\s{]/.test(Function.prototype.toString.call(value)) ? "class" : "function";
  }
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

// Every change to what a subpath exports shows in review as a change of this snapshot.
describe("@platform/core subpaths: names and kinds", () => {
  it.each([
    ["@platform/core", root],
    ["@platform/core/ports", ports],
    ["@platform/core/errors", errors],
    ["@platform/core/testing", testing],
  ] as const)("%s", (_name, mod) => {
    expect(surface(mod as Record<string, unknown>)).toMatchSnapshot();
  });

  it("every port token in /ports is a symbol named after its port (`platform.<Name>`)", () => {
    const tokens = Object.entries(ports).filter(([, v]) => typeof v === "symbol");
    expect(tokens.length).toBeGreaterThan(30);
    for (const [name, token] of tokens) {
      expect((token as symbol).description).toBe(`platform.${name}`);
    }
  });
});
