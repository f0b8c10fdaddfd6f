import { createHash } from "node:crypto";
import { buildPlatformSdk, type SdkManifest } from "@keyward/sdk-browser/build";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./test-support.js";

// The SDK route createHttpApp adds: fixed URLs revalidate (ETag, no-cache), content-hashed aliases
// are immutable, and manifest.json names the aliases.

describe("createHttpApp serves the browser SDK at /js", () => {
  let t: TestServer;
  let manifest: SdkManifest;

  beforeAll(async () => {
    manifest = (await buildPlatformSdk()).manifest;
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("registers GET /js/** (and none with sdkAssets: false)", async () => {
    expect(t.routes.list().some((r) => r.method === "GET" && r.path === "/js/**")).toBe(true);
    const off = await startTestServer(() => {}, { app: { sdkAssets: false } });
    try {
      expect(off.routes.list().some((r) => r.path === "/js/**")).toBe(false);
      expect((await off.fetch("/js/platform-mfa-sdk.js")).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it("the fixed URL keeps its ETag and Cache-Control: no-cache", async () => {
    const res = await t.fetch("/js/platform-mfa-sdk.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const body = await res.text();
    expect(res.headers.get("etag")).toBe(`"${createHash("sha256").update(body).digest("base64url")}"`);
    expect(body).toContain("PlatformMFA");
  });

  it("every hashed alias serves the same bytes, immutable for a year, and its integrity matches", async () => {
    for (const [name, { file, integrity }] of Object.entries(manifest.files)) {
      const fixed = await (await t.fetch(`/js/${name}`)).text();
      const res = await t.fetch(`/js/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("content-type")).toBe(
        name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8",
      );
      const body = await res.text();
      expect(body).toBe(fixed);
      expect(file).toContain(createHash("sha256").update(body).digest("hex").slice(0, 12));
      expect(integrity).toBe(`sha384-${createHash("sha384").update(body).digest("base64")}`);
    }
  });

  it("serves /js/manifest.json (revalidated: it changes with each build)", async () => {
    const res = await t.fetch("/js/manifest.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toEqual(manifest);
  });

  it("answers 404 for other names, dot segments and nested paths", async () => {
    for (const path of ["/js/nope.js", "/js/../package.json", "/js/pages/login-page.ts", "/js/"]) {
      expect((await t.fetch(path)).status, path).toBe(404);
    }
  });
});
