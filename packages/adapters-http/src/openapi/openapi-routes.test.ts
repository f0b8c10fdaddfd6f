import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support.js";

describe("GET /openapi.json and the reference page", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer((app) =>
      app.routes.add({ method: "GET", path: "/shop/items/{id}", name: "shop.item", handler: () => ({}) }),
    );
  });
  afterAll(() => t.close());

  it("serves the document of the table, host routes included, public and cacheable with an ETag", async () => {
    const res = await t.fetch("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.paths["/shop/items/{id}"]?.get?.operationId).toBe("shop.item");
    expect(doc.paths["/openapi.json"]?.get?.operationId).toBe("http.openapi");
    expect(doc.paths["/docs/index.html"]?.get?.operationId).toBe("http.rest-docs");
  });

  it("answers 304 to the current ETag, 200 to a stale, hostile or oversized one", async () => {
    const etag = (await t.fetch("/openapi.json")).headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const cached = await t.fetch("/openapi.json", { headers: { "if-none-match": `"other", ${etag}` } });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe("");
    for (const held of ['"stale"', "*<script>", "\u00ff".repeat(10), `"${"a".repeat(8000)}"`]) {
      const res = await t.fetch("/openapi.json", { headers: { "if-none-match": held } });
      expect(res.status).toBe(200);
    }
  });

  it("sees a route added after the first answer (the document is rebuilt, the ETag changes)", async () => {
    const before = (await t.fetch("/openapi.json")).headers.get("etag");
    t.routes.add({ method: "DELETE", path: "/shop/items/{id}", name: "shop.remove", handler: () => ({}) });
    const res = await t.fetch("/openapi.json");
    expect(res.headers.get("etag")).not.toBe(before);
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths["/shop/items/{id}"]!)).toEqual(["get", "delete"]);
  });

  it("ignores a query and answers HEAD; another method is 405 with Allow", async () => {
    expect((await t.fetch("/openapi.json?x=%00&x=<script>")).status).toBe(200);
    const head = await t.fetch("/openapi.json", { method: "HEAD" });
    expect(head.status).toBe(200);
    const post = await t.fetch("/openapi.json", {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toContain("GET");
    expect(((await post.json()) as { code: string }).code).toBe("METHOD_NOT_ALLOWED");
  });

  it("renders the reference page: one section per route name, escaped, no script", async () => {
    const res = await t.fetch("/docs/index.html");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    for (const name of ["shop.item", "http.health", "http.openapi", "http.rest-docs", "http.sdk-assets"]) {
      expect(html).toContain(`<section id="${name}">`);
    }
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('href="/openapi.json"');
  });
});

describe("the OpenAPI properties", () => {
  it("platform.http.openapi.enabled=false serves neither the document nor the page", async () => {
    const t = await startTestServer(() => {}, { properties: { "platform.http.openapi.enabled": "false" } });
    try {
      expect((await t.fetch("/openapi.json")).status).toBe(404);
      expect((await t.fetch("/docs/index.html")).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it("serves the page at platform.iam.admin.rest-docs-path", async () => {
    const t = await startTestServer(() => {}, {
      properties: { "platform.iam.admin.rest-docs-path": "/api-docs" },
    });
    try {
      expect((await t.fetch("/api-docs")).status).toBe(200);
      expect((await t.fetch("/docs/index.html")).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it("refuses a rest-docs-path that is not an absolute literal path", async () => {
    for (const bad of ["docs", "/docs/{x}", "/a//b", "/docs/*", ""]) {
      await expect(
        startTestServer(() => {}, { properties: { "platform.iam.admin.rest-docs-path": bad } }),
      ).rejects.toMatchObject({ code: "PROPERTY_INVALID" });
    }
  });
});
