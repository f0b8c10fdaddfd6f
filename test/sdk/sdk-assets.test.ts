import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../packages/adapters-http/src/test-support.js";
import { writeSdkAssets } from "../../packages/cli/src/sdk-assets.js";

// What `pnpm start` writes to .platform/js and how the static route serves it: fixed URLs revalidate
// (ETag, no-cache), content-hashed aliases are immutable, and manifest.json names the aliases.

describe("SDK assets: fixed URLs, hashed aliases and the manifest", () => {
  let dir: string;
  let t: TestServer;
  let written: Awaited<ReturnType<typeof writeSdkAssets>>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "sdk-assets-"));
    written = await writeSdkAssets(dir);
    t = await startTestServer(() => {}, { app: { staticAssets: [{ prefix: "/js", directory: dir }] } });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("writes every file under its fixed name and its hashed alias, plus manifest.json", async () => {
    const names = Object.keys(written.manifest.files);
    expect(names).toEqual([
      "platform-mfa-sdk.js",
      "platform-mfa-sdk.esm.js",
      "platform-login-page.js",
      "platform-ott-request-page.js",
      "platform-ott-verify-page.js",
      "platform-passkey-page.js",
    ]);
    const files = await readdir(dir);
    for (const name of names) {
      const alias = written.manifest.files[name]!.file;
      expect(alias, name).toMatch(
        new RegExp(`^${name.replace(/\.js$/, "").replace(/\./g, "\\.")}\\.[0-9a-f]{12}\\.js$`),
      );
      expect(files).toContain(name);
      expect(files).toContain(alias);
    }
    expect(files).toContain("manifest.json");
    expect(written.manifest.version).toBe("2.2.0");
  });

  it("the fixed URL keeps its ETag and Cache-Control: no-cache", async () => {
    const res = await t.fetch("/js/platform-mfa-sdk.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const body = await res.text();
    expect(res.headers.get("etag")).toBe(`"${createHash("sha256").update(body).digest("base64url")}"`);
    expect(body).toContain("PlatformMFA");
  });

  it("the hashed alias serves the same bytes, immutable for a year, and its integrity matches", async () => {
    const { file, integrity } = written.manifest.files["platform-mfa-sdk.js"]!;
    const fixed = await (await t.fetch("/js/platform-mfa-sdk.js")).text();
    const res = await t.fetch(`/js/${file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const body = await res.text();
    expect(body).toBe(fixed);
    expect(file).toContain(createHash("sha256").update(body).digest("hex").slice(0, 12));
    expect(integrity).toBe(`sha384-${createHash("sha384").update(body).digest("base64")}`);
  });

  it("serves /js/manifest.json (revalidated: it changes with each build)", async () => {
    const res = await t.fetch("/js/manifest.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(await res.json()).toEqual(written.manifest);
  });
});
