import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createContext, runInContext } from "node:vm";
import { gzipSync } from "node:zlib";
import {
  buildPlatformSdk,
  SDK_ESM_FILE,
  SDK_GZIP_BUDGET_BYTES,
  SDK_IIFE_FILE,
} from "../../packages/sdk-browser/build/build-sdk.js";
import { beforeAll, describe, expect, it } from "vitest";
import { FakeDocument, FakeStorage } from "./sdk-sandbox.js";

describe("buildPlatformSdk (esbuild, in memory)", () => {
  let built: Awaited<ReturnType<typeof buildPlatformSdk>>;
  const file = (name: string): string => {
    const f = built.files.find((x) => x.name === name);
    if (!f) throw new Error(`no ${name}`);
    return f.contents;
  };

  beforeAll(async () => {
    built = await buildPlatformSdk();
  });

  it("builds the IIFE and the ES module", () => {
    expect(built.files.map((f) => f.name)).toEqual([SDK_IIFE_FILE, SDK_ESM_FILE]);
    expect(file(SDK_IIFE_FILE).length).toBeGreaterThan(1000);
  });

  it("the IIFE defines window.PlatformMFA 2.2.0 with Client, ApiClient and PlatformMfaError", () => {
    const window: Record<string, unknown> = {};
    Object.assign(window, {
      window,
      document: new FakeDocument(),
      localStorage: new FakeStorage(),
      EventTarget,
      CustomEvent,
    });
    runInContext(file(SDK_IIFE_FILE), createContext(window));
    const sdk = window.PlatformMFA as Record<string, unknown>;
    expect(sdk.version).toBe("2.2.0");
    expect(typeof sdk.Client).toBe("function");
    expect(typeof sdk.ApiClient).toBe("function");
    expect(typeof sdk.PlatformMfaError).toBe("function");
    expect(Object.isFrozen(sdk)).toBe(true);
    // The bundle leaks nothing else onto the page.
    expect(Object.keys(window).sort()).toEqual(
      ["CustomEvent", "EventTarget", "PlatformMFA", "document", "localStorage", "window"].sort(),
    );
  });

  it("carries no server code (no node: modules, no require)", () => {
    for (const name of [SDK_IIFE_FILE, SDK_ESM_FILE]) {
      const text = file(name);
      expect(text, name).not.toContain("node:");
      expect(text, name).not.toContain("require(");
      expect(text, name).not.toMatch(/\bprocess\.env\b/);
      expect(text, name).not.toContain("tsyringe");
    }
  });

  it("the gzipped IIFE is under the 15 KB budget", () => {
    expect(built.gzipBytes).toBe(gzipSync(file(SDK_IIFE_FILE), { level: 9 }).byteLength);
    expect(built.gzipBytes).toBeLessThan(SDK_GZIP_BUDGET_BYTES);
    console.log(`platform-mfa-sdk.js: ${file(SDK_IIFE_FILE).length} bytes, ${built.gzipBytes} gzipped`);
  });

  it("the ES module exports the SDK's API", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sdk-esm-"));
    try {
      const path = join(dir, SDK_ESM_FILE.replace(/\.js$/, ".mjs"));
      writeFileSync(path, file(SDK_ESM_FILE));
      const mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
      expect(mod.SDK_VERSION).toBe("2.2.0");
      for (const name of ["Client", "ApiClient", "PlatformMfaError", "TokenStore"]) {
        expect(typeof mod[name], name).toBe("function");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
