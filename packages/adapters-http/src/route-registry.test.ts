import { isPlatformError } from "@keyward/core/errors";
import { HttpExchange, RouteTable } from "@keyward/core/web";
import { describe, expect, it } from "vitest";
import { type RouteDefinition, RouteRegistry } from "./route-registry.js";

const route = (method: RouteDefinition["method"], path: string): RouteDefinition => ({
  method,
  path,
  handler: () => ({ method, path }),
});

function thrownCode(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return isPlatformError(error) ? error.code : String(error);
  }
}

describe("RouteRegistry", () => {
  it("lists routes in registration order with their meta", () => {
    const routes = new RouteRegistry();
    routes.add({ ...route("GET", "/a"), meta: { resource: "a" }, description: "A" });
    routes.add(route("POST", "/b"));
    expect(routes.list().map((r) => [r.method, r.path, r.meta?.resource])).toEqual([
      ["GET", "/a", "a"],
      ["POST", "/b", undefined],
    ]);
  });

  it("refuses the same method and path twice, parameter names aside", () => {
    const routes = new RouteRegistry().add(route("GET", "/users/{id}"));
    expect(thrownCode(() => routes.add(route("GET", "/users/{name}")))).toBe("CONFIGURATION_INVALID");
    expect(thrownCode(() => routes.add(route("GET", "/users/:name")))).toBe("CONFIGURATION_INVALID");
    expect(thrownCode(() => routes.add(route("POST", "/users/{id}")))).toBeUndefined();
    expect(thrownCode(() => routes.add(route("ANY", "/users/{id}")))).toBeUndefined();
  });

  it("accepts :name as hosts write it and lists, names and matches it as {name}", () => {
    const routes = new RouteRegistry().add({
      method: "GET",
      path: "/teams/:team/members/:id",
      handler: () => "ok",
    });
    expect(routes.list().map((r) => r.path)).toEqual(["/teams/{team}/members/{id}"]);
    expect(routes.match("GET", "/teams/a%20b/members/7")).toMatchObject({
      kind: "found",
      route: { path: "/teams/{team}/members/{id}" },
      params: { team: "a b", id: "7" },
    });
    const table = new RouteTable();
    routes.bindTo(table);
    expect(table.list().map((r) => [r.path, r.name])).toEqual([
      ["/teams/{team}/members/{id}", "app.GET /teams/{team}/members/{id}"],
    ]);
  });

  it("serves {name:regex} routes and refuses partial-segment wildcards (policy targets only)", () => {
    const routes = new RouteRegistry().add(route("GET", "/v/{n:\\d+}")).add(route("GET", "/v/{name}"));
    expect(routes.match("GET", "/v/12")).toMatchObject({
      route: { path: "/v/{n:\\d+}" },
      params: { n: "12" },
    });
    expect(routes.match("GET", "/v/x")).toMatchObject({
      route: { path: "/v/{name}" },
      params: { name: "x" },
    });
    expect(() => routes.add(route("GET", "/assets/*.js"))).toThrow(/accepted in policy targets only/);
  });

  it("refuses malformed patterns", () => {
    const routes = new RouteRegistry();
    expect(thrownCode(() => routes.add(route("GET", "no-slash")))).toBe("CONFIGURATION_INVALID");
    expect(thrownCode(() => routes.add(route("GET", "/a/**/b")))).toBe("CONFIGURATION_INVALID");
    expect(thrownCode(() => routes.add(route("GET", "/a/:1x")))).toBe("CONFIGURATION_INVALID");
    expect(thrownCode(() => routes.add(route("GET", "/a//b")))).toBe("CONFIGURATION_INVALID");
  });

  it("matches literal, parameter and tail segments, most specific first", () => {
    const routes = new RouteRegistry()
      .add(route("GET", "/files/**"))
      .add(route("GET", "/files/{name}"))
      .add(route("GET", "/files/readme"));
    const found = (path: string) => {
      const m = routes.match("GET", path);
      return m.kind === "found" ? [m.route.path, m.params] : m.kind;
    };
    expect(found("/files/readme")).toEqual(["/files/readme", {}]);
    expect(found("/files/a%20b")).toEqual(["/files/{name}", { name: "a b" }]);
    expect(found("/files/a/b")).toEqual(["/files/**", { "**": "a/b" }]);
    expect(found("/files")).toEqual(["/files/**", { "**": "" }]);
    // No trailing-slash leniency: paths arrive canonical (HttpExchange.path), matched exactly.
    expect(found("/files/readme/")).toEqual(["/files/**", { "**": "readme/" }]);
    expect(found("/other")).toBe("not-found");
  });

  it("does not match a parameter whose escapes do not decode", () => {
    const routes = new RouteRegistry().add(route("GET", "/u/{id}"));
    expect(routes.match("GET", "/u/%E0%A4%A").kind).toBe("not-found");
  });

  it("answers HEAD with a GET route, prefers the exact method over ANY, and reports Allow", () => {
    const routes = new RouteRegistry()
      .add(route("GET", "/x"))
      .add(route("ANY", "/y"))
      .add(route("POST", "/y"));
    const head = routes.match("HEAD", "/x");
    expect(head.kind === "found" && head.route.method).toBe("GET");
    const post = routes.match("POST", "/y");
    expect(post.kind === "found" && post.route.method).toBe("POST");
    const put = routes.match("PUT", "/y");
    expect(put.kind === "found" && put.route.method).toBe("ANY");
    expect(routes.match("DELETE", "/x")).toEqual({ kind: "method-not-allowed", allow: ["GET", "HEAD"] });
  });

  it("prefers a more specific path over the exact method", () => {
    const routes = new RouteRegistry().add(route("GET", "/js/**")).add(route("POST", "/js/upload"));
    const get = routes.match("GET", "/js/upload");
    expect(get.kind === "found" && get.route.path).toBe("/js/**");
  });

  it("matches an exchange once, until a route is added", () => {
    const routes = new RouteRegistry().add(route("GET", "/a/{id}"));
    const ex = new HttpExchange({ method: "GET", url: "/a/7", headers: {}, remoteAddress: "" });
    const first = routes.matchExchange(ex);
    expect(first).toMatchObject({ kind: "found", params: { id: "7" } });
    expect(routes.matchExchange(ex)).toBe(first);
    routes.add(route("GET", "/a/7"));
    const again = routes.matchExchange(ex);
    expect(again.kind === "found" && again.route.path).toBe("/a/7");
    expect(new RouteRegistry().add(route("GET", "/a/{id}")).matchExchange(ex)).not.toBe(again);
  });

  it("says which requests need the caller context: not a route declaring false, nor an unserved one", () => {
    const routes = new RouteRegistry()
      .add(route("GET", "/app"))
      .add({ ...route("GET", "/ops"), callerContext: false });
    const needs = (method: string, url: string) =>
      routes.needsCallerContext(new HttpExchange({ method, url, headers: {}, remoteAddress: "" }));
    expect(needs("GET", "/app")).toBe(true);
    expect(needs("GET", "/ops")).toBe(false);
    expect(needs("GET", "/nothing")).toBe(false);
    expect(needs("POST", "/app")).toBe(false);
  });
});
