import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isPlatformError } from "@keyward/core/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staticAssetsRoute } from "./static-assets.js";
import { rawGet, rawRequest, startTestServer, type TestServer } from "./test-support.js";

const APP_JS = "console.log('hello');\n";
const SECRET = "TOP-SECRET-CONTENT";
/** The first 12 hex digits of the sha-256 of APP_JS: the content hash of its hashed alias. */
const APP_HASH = createHash("sha256").update(APP_JS).digest("hex").slice(0, 12);

describe("static assets", () => {
  let base: string;
  let t: TestServer;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "static-assets-"));
    const dir = join(base, "public");
    await mkdir(join(dir, "nested"), { recursive: true });
    await writeFile(join(dir, "app.js"), APP_JS);
    await writeFile(join(dir, `app.${APP_HASH}.js`), APP_JS);
    // A name that claims a hash its bytes do not have (a stale or hand-made copy).
    await writeFile(join(dir, "app.0123456789ab.js"), APP_JS);
    await writeFile(join(dir, "style.css"), "body{}");
    await writeFile(join(dir, "nested", "data.json"), '{"a":1}');
    await writeFile(join(dir, ".hidden.txt"), SECRET);
    await writeFile(join(dir, "tool.exe"), SECRET);
    await writeFile(join(base, "secret.txt"), SECRET);
    await symlink(join(base, "secret.txt"), join(dir, "link.txt"));
    t = await startTestServer(() => {}, {
      // The SDK route (also `/js/**`) is off: this directory stands in for it.
      app: { sdkAssets: false, staticAssets: [{ prefix: "/js", directory: dir }] },
    });
  });
  afterAll(async () => {
    await t.close();
    await rm(base, { recursive: true, force: true });
  });

  it("registers the static route in the registry", () => {
    expect(t.routes.list().some((r) => r.method === "GET" && r.path === "/js/**")).toBe(true);
  });

  it("serves a file with its content type, a strong sha-256 ETag and no-cache", async () => {
    const res = await t.fetch("/js/app.js");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(APP_JS);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const etag = `"${createHash("sha256").update(APP_JS).digest("base64url")}"`;
    expect(res.headers.get("etag")).toBe(etag);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await t.fetch("/js/style.css")).headers.get("content-type")).toBe("text/css; charset=utf-8");
    const json = await t.fetch("/js/nested/data.json");
    expect(json.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await json.json()).toEqual({ a: 1 });
  });

  it("serves a content-hashed alias immutable for a year, but only when the hash is the bytes' own", async () => {
    const hashed = await t.fetch(`/js/app.${APP_HASH}.js`);
    expect(hashed.status).toBe(200);
    expect(await hashed.text()).toBe(APP_JS);
    expect(hashed.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(hashed.headers.get("etag")).toBe((await t.fetch("/js/app.js")).headers.get("etag"));
    // A wrong hash, upper-case hex or another length is an ordinary file: revalidated.
    expect((await t.fetch("/js/app.0123456789ab.js")).headers.get("cache-control")).toBe("no-cache");
    expect((await t.fetch("/js/app.js")).headers.get("cache-control")).toBe("no-cache");
    const again = await t.fetch(`/js/app.${APP_HASH}.js`, {
      headers: { "if-none-match": hashed.headers.get("etag") ?? "" },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("answers 304 to a matching If-None-Match, weak or in a list, and 200 otherwise", async () => {
    const etag = (await t.fetch("/js/app.js")).headers.get("etag")!;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const res = await t.fetch("/js/app.js", { headers: { "if-none-match": header } });
      expect(res.status).toBe(304);
      expect(res.headers.get("etag")).toBe(etag);
      expect(await res.text()).toBe("");
    }
    expect((await t.fetch("/js/app.js", { headers: { "if-none-match": '"stale"' } })).status).toBe(200);
  });

  it("answers HEAD with the headers and no body, and other methods with 405", async () => {
    const head = await t.fetch("/js/app.js", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(APP_JS)));
    expect(await head.text()).toBe("");
    const post = await t.fetch("/js/app.js", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });

  it("answers 404 for missing files, directories, hidden files and unknown extensions", async () => {
    for (const path of ["/js/missing.js", "/js/", "/js", "/js/nested", "/js/.hidden.txt", "/js/tool.exe"]) {
      const res = await t.fetch(path);
      expect(res.status, path).toBe(404);
      const text = await res.text();
      expect(JSON.parse(text)).toMatchObject({ code: "NOT_FOUND" });
      expect(text).not.toContain(SECRET);
    }
  });

  it("never serves anything outside the directory", async () => {
    const attempts = [
      "/js/../secret.txt",
      "/js/nested/../../secret.txt",
      "/js/%2e%2e/secret.txt",
      "/js/%2E%2E/%2e%2e/secret.txt",
      "/js/%2e%2e%2fsecret.txt",
      "/js/..%2f..%2fsecret.txt",
      "/js/..%5csecret.txt",
      "/js/..\\secret.txt",
      "/js/nested\\..\\..\\secret.txt",
      "/js/%252e%252e/secret.txt",
      "/js/app.js%00.png",
      "/js/%00/../secret.txt",
      "/js/link.txt",
      `/js/${encodeURIComponent(join(tmpdir(), "x"))}`,
      "/js//etc/passwd",
      "/js/%2fetc%2fpasswd",
    ];
    for (const path of attempts) {
      const res = await rawRequest(t.server.port, rawGet(path));
      expect(res.status, path).toBe(404);
      expect(res.body, path).not.toContain(SECRET);
      expect(res.body, path).not.toContain("root:");
    }
  });

  it("refuses a relative directory or a bad prefix at configuration time", () => {
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return isPlatformError(error) ? error.code : "other";
      }
      return undefined;
    };
    expect(code(() => staticAssetsRoute({ prefix: "/js", directory: "relative/dir" }))).toBe(
      "CONFIGURATION_INVALID",
    );
    expect(code(() => staticAssetsRoute({ prefix: "js", directory: "/abs" }))).toBe("CONFIGURATION_INVALID");
    expect(code(() => staticAssetsRoute({ prefix: "/:x", directory: "/abs" }))).toBe("CONFIGURATION_INVALID");
    expect(staticAssetsRoute({ prefix: "/assets/", directory: "/abs" }).path).toBe("/assets/**");
  });
});
