import { createHash } from "node:crypto";
import { createHttpApp, httpPlugin, serveHttp } from "@keyward/adapters-http";
import {
  createIdentityPlugin,
  createPlatform,
  mfaPlugin,
  type Platform,
  type SecurityConfiguration,
  type SecurityRegistry,
} from "@keyward/core";
import { PAGE_SCRIPT_PATHS } from "@keyward/core/web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SDK_PAGE_SCRIPTS } from "../../packages/sdk-browser/build/build-sdk.js";

// A host that embeds the platform with createPlatform + createHttpApp only (no CLI, no static
// directory of its own): every script the core's pages name must load from the binding.

/** An MFA flow (form primary, OTT and passkey factors) for the pages, and the passkey chain. */
function hostSecurity(r: SecurityRegistry): SecurityConfiguration {
  return r
    .mfa((m) =>
      m
        .primaryAuthentication((p) => p.formLogin((f) => f.defaultSuccessUrl("/")))
        .ott()
        .passkey()
        .requiredFactors(1)
        .rawHttp((h) => h.securityMatcher("/login", "/mfa/**", "/api/mfa/**")),
    )
    .session()
    .passkey((p) => p.rawHttp((h) => h.securityMatcher("/passkeys", "/webauthn/**", "/login/webauthn")))
    .session()
    .build();
}

/** The `src` of every `<script>` of a page. */
function scriptSources(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!);
}

describe("a host with createHttpApp alone serves every script the core's pages load", () => {
  let platform: Platform;
  let base: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    platform = createPlatform({
      plugins: [httpPlugin, createIdentityPlugin({ security: hostSecurity }), mfaPlugin],
      env: {},
    });
    await platform.start();
    const { app } = createHttpApp({ platform });
    const server = await serveHttp(app, { port: 0 });
    base = server.url;
    close = async () => {
      await server.close(true);
      await platform.stop();
    };
  });
  afterAll(async () => {
    await close?.();
  });

  async function expectScript(src: string): Promise<void> {
    const res = await fetch(`${base}${src}`);
    expect({ src, status: res.status }).toEqual({ src, status: 200 });
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const body = await res.text();
    expect(res.headers.get("etag")).toBe(`"${createHash("sha256").update(body).digest("base64url")}"`);
    expect(body).toMatch(/^"use strict";/);
    const again = await fetch(`${base}${src}`, { headers: { "if-none-match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);
  }

  it.each(["/login", "/passkeys"])("the scripts of %s", async (page) => {
    const res = await fetch(`${base}${page}`, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    const sources = scriptSources(await res.text());
    expect(sources.length).toBeGreaterThan(0);
    for (const src of sources) await expectScript(src);
  });

  it("every path of PAGE_SCRIPT_PATHS (the pages' one constant) is a script of the SDK's build", async () => {
    const built = ["platform-mfa-sdk.js", ...SDK_PAGE_SCRIPTS.map((p) => p.name)].map((n) => `/js/${n}`);
    expect(Object.values(PAGE_SCRIPT_PATHS).sort()).toEqual(built.sort());
    for (const src of Object.values(PAGE_SCRIPT_PATHS)) await expectScript(src);
  });

  it("answers 404 NOT_FOUND for a name the build does not have", async () => {
    const res = await fetch(`${base}/js/platform-nothing.js`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe("NOT_FOUND");
  });
});
