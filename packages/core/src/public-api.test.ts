import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as authz from "./authz/index.js";
import * as decisions from "./decisions/index.js";
import * as errors from "./errors.js";
import * as identity from "./identity/index.js";
import * as root from "./index.js";
import * as mfa from "./mfa/index.js";
import * as ports from "./ports.js";
import * as prompts from "./prompts/index.js";
import * as testing from "./testing.js";
import * as web from "./web/index.js";
import * as wire from "./web/wire/index.js";

const SUBPATHS = [
  ["@platform/core", root],
  ["@platform/core/ports", ports],
  ["@platform/core/web", web],
  ["@platform/core/wire", wire],
  ["@platform/core/identity", identity],
  ["@platform/core/mfa", mfa],
  ["@platform/core/authz", authz],
  ["@platform/core/prompts", prompts],
  ["@platform/core/decisions", decisions],
  ["@platform/core/errors", errors],
  ["@platform/core/testing", testing],
] as const;

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
  it.each(SUBPATHS)("%s", (_name, mod) => {
    expect(surface(mod as Record<string, unknown>)).toMatchSnapshot();
  });

  it("every port token in /ports is a symbol named after its port (`platform.<Name>`)", () => {
    const tokens = Object.entries(ports).filter(([, v]) => typeof v === "symbol");
    expect(tokens.length).toBeGreaterThan(30);
    for (const [name, token] of tokens) {
      expect((token as symbol).description).toBe(`platform.${name}`);
    }
  });

  it("snapshots every subpath package.json exports, and no other", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      exports: Record<string, string>;
    };
    const exported = Object.keys(manifest.exports).map((key) => `@platform/core${key.slice(1)}`);
    expect(exported.sort()).toEqual(SUBPATHS.map(([name]) => name).sort());
  });

  it("keeps internals and test doubles out of every subpath but /testing", () => {
    const internal = [
      /^setCurrentAuthentication$/,
      /^CompiledPolicySet$/,
      /^ZEROTRUST_/,
      /^ManualClock$/,
      /^Counting/,
      /Filter$/,
      /_PROPERTIES$/,
      /^[A-Z]\w*Token$/,
    ];
    for (const [name, mod] of SUBPATHS) {
      if (name === "@platform/core/testing") continue;
      const leaked = Object.keys(mod).filter((key) => internal.some((pattern) => pattern.test(key)));
      expect({ name, leaked }).toEqual({ name, leaked: [] });
    }
  });

  it("/ports exports no implementation of ours (no class)", () => {
    const classes = Object.entries(ports).filter(([, value]) => kindOf(value) === "class");
    expect(classes.map(([name]) => name)).toEqual([]);
  });
});
