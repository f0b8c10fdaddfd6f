import { createHash } from "node:crypto";
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
  SDK_PAGE_SCRIPTS,
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

  const pageScripts = SDK_PAGE_SCRIPTS.map((p) => p.name);
  // The /passkeys page's and the console pages' scripts stand alone: those pages load no SDK.
  const STANDALONE = [
    "platform-passkeys-page.js",
    "platform-policy-center-page.js",
    "platform-releases-page.js",
  ];
  const mfaPageScripts = pageScripts.filter((name) => !STANDALONE.includes(name));

  it("builds the IIFE, the ES module, the seven page scripts and the console's stylesheet", () => {
    expect(built.files.map((f) => f.name)).toEqual([
      SDK_IIFE_FILE,
      SDK_ESM_FILE,
      "platform-login-page.js",
      "platform-ott-request-page.js",
      "platform-ott-verify-page.js",
      "platform-passkey-page.js",
      "platform-passkeys-page.js",
      "platform-policy-center-page.js",
      "platform-releases-page.js",
      "platform-console.css",
    ]);
    expect(file("platform-console.css")).toContain(".console");
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
    expect(typeof sdk.installInterceptor).toBe("function");
    expect(Object.isFrozen(sdk)).toBe(true);
    // The bundle leaks nothing else onto the page.
    expect(Object.keys(window).sort()).toEqual(
      ["CustomEvent", "EventTarget", "PlatformMFA", "document", "localStorage", "window"].sort(),
    );
  });

  it("names a content-hashed alias and the integrity of every file in the manifest", () => {
    expect(built.manifest.version).toBe("2.2.0");
    expect(Object.keys(built.manifest.files)).toEqual(built.files.map((f) => f.name));
    for (const f of built.files) {
      const hex = createHash("sha256").update(f.contents).digest("hex").slice(0, 12);
      expect(f.hashedName, f.name).toBe(f.name.replace(/\.(js|css)$/, `.${hex}.$1`));
      expect(built.manifest.files[f.name], f.name).toEqual({
        file: f.hashedName,
        integrity: `sha384-${createHash("sha384").update(f.contents).digest("base64")}`,
      });
    }
  });

  it("carries no server code (no node: modules, no require)", () => {
    for (const name of [SDK_IIFE_FILE, SDK_ESM_FILE, ...pageScripts]) {
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

  it("the MFA page scripts use window.PlatformMFA rather than bundling the SDK, and report their size", () => {
    for (const name of mfaPageScripts) {
      const text = file(name);
      expect(text, name).toMatch(/^"use strict";\(\(\)=>\{/);
      expect(text, name).toContain("PlatformMFA");
      // The SDK's request machinery (headers, device id, token store) stays in platform-mfa-sdk.js.
      expect(text, name).not.toContain("X-Device-Id");
      expect(text, name).not.toContain("platform_access_token");
      expect(built.pageScriptGzipBytes[name]).toBe(gzipSync(text, { level: 9 }).byteLength);
      console.log(`${name}: ${text.length} bytes, ${built.pageScriptGzipBytes[name]} gzipped`);
    }
  });

  it("a page script without the SDK or its page leaks nothing and changes nothing", () => {
    for (const name of pageScripts) {
      const window: Record<string, unknown> = {};
      const document = Object.assign(new FakeDocument(), { readyState: "complete" });
      // The element classes the scripts check their contract elements against (none exist here).
      const elements = { HTMLFormElement: class {}, HTMLButtonElement: class {}, HTMLInputElement: class {} };
      Object.assign(window, { window, document, ...elements });
      runInContext(file(name), createContext(window));
      expect(Object.keys(window).sort(), name).toEqual([
        "HTMLButtonElement",
        "HTMLFormElement",
        "HTMLInputElement",
        "document",
        "window",
      ]);
    }
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
