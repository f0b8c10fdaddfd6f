import { compilePathPattern, HttpExchange } from "@keyward/core/web";
import { describe, expect, it } from "vitest";
import { RouteRegistry } from "./route-registry.js";

/** Route patterns (as hosts may write them) and the policy targets (and static rules) written for them. */
const PAIRS: Array<[route: string, ant: string]> = [
  ["/api/orders/{id}", "/api/orders/{id}"],
  // `:name` as a host may still write it: converted once, the same segments
  ["/api/orders/:id", "/api/orders/{id}"],
  ["/api/orders/{id:\\d+}", "/api/orders/{id:\\d+}"],
  ["/api/orders", "/api/orders"],
  ["/admin", "/admin"],
  ["/admin/api/**", "/admin/api/**"],
  ["/users/@me", "/users/@me"],
  ["/caf%c3%a9", "/café"],
  // written with a trailing slash on either side: it means the same path
  ["/reports/", "/reports"],
  ["/exports", "/exports/"],
];

/** Request paths as clients may spell them (the HttpExchange canonicalises each once). */
const REQUESTS = [
  "/api/orders/7",
  "/api/orders/7/",
  "/api/orders/%37",
  "/api/orders/7.",
  "/API/orders/7",
  "/api/orders",
  "/api/orders/",
  "/%61pi/orders/",
  "/admin",
  "/admin/",
  "/%61dmin",
  "/ADMIN",
  "/admin.",
  "/admin/api/audit/",
  "/admin/api",
  "/users/%40me",
  "/users/@me/",
  "/users/%40ME",
  "/café",
  "/caf%C3%A9/",
  "/caf%c3%a9",
  "/reports/",
  "/reports",
  "/exports/",
  "/exports",
];

const canonical = (url: string): string =>
  new HttpExchange({ method: "GET", url, headers: {}, remoteAddress: "" }).path;

describe("RouteRegistry and policy targets judge one canonical path", () => {
  for (const [route, ant] of PAIRS) {
    it(`route ${route} is served exactly where the policy target ${ant} matches`, () => {
      const routes = new RouteRegistry().add({ method: "GET", path: route, handler: () => "ok" });
      const pattern = compilePathPattern(ant, "policy");
      // One language: the route and the target compile to the same segments.
      expect(compilePathPattern(route, "route").segments).toEqual(pattern.segments);
      expect(compilePathPattern(ant, "matcher").segments).toEqual(pattern.segments);
      const served = REQUESTS.filter((r) => routes.match("GET", canonical(r)).kind === "found");
      const judged = REQUESTS.filter((r) => pattern.matches(canonical(r)));
      expect(served).toEqual(judged);
      expect(served.length).toBeGreaterThan(0);
    });
  }

  it("a route parameter decodes to a literal exactly when a policy on that literal matches", () => {
    const routes = new RouteRegistry().add({ method: "GET", path: "/users/{name}", handler: () => "ok" });
    const literal = compilePathPattern("/users/@me", "policy");
    for (const r of REQUESTS.filter((p) => p.startsWith("/users/"))) {
      const path = canonical(r);
      const match = routes.match("GET", path);
      const name = match.kind === "found" ? match.params.name : undefined;
      expect(name === "@me", r).toBe(literal.matches(path));
    }
  });

  it("has no trailing-slash leniency of its own: a non-canonical path matches no literal route", () => {
    const routes = new RouteRegistry().add({
      method: "DELETE",
      path: "/api/orders/{id}",
      handler: () => "ok",
    });
    expect(routes.match("DELETE", "/api/orders/7").kind).toBe("found");
    expect(routes.match("DELETE", "/api/orders/7/").kind).toBe("not-found");
  });
});
