import { describe, expect, it } from "vitest";
import { isPlatformError } from "../kernel/platform-error.js";
import { type Route, type RouteMethod, RouteTable } from "./route-table.js";

const route = (method: RouteMethod, path: string, chain?: string): Route => ({
  method,
  path,
  name: `test.${method} ${path}`,
  description: "a test route",
  feature: "test",
  access: "public",
  chain,
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

describe("RouteTable", () => {
  it("lists every route in registration order, app routes apart", () => {
    const table = new RouteTable().add(route("GET", "/a")).add(route("POST", "/login", "form"));
    expect(table.list().map((r) => [r.method, r.path, r.chain])).toEqual([
      ["GET", "/a", undefined],
      ["POST", "/login", "form"],
    ]);
    expect(table.appRoutes().map((r) => r.path)).toEqual(["/a"]);
    expect(Object.isFrozen(table.list()[0])).toBe(true);
  });

  it("refuses the same method and path shape twice on one chain, but not on two chains", () => {
    const table = new RouteTable().add(route("POST", "/logout", "form"));
    expect(thrownCode(() => table.add(route("POST", "/logout", "form")))).toBe("CONFIGURATION_INVALID");
    expect(thrownCode(() => table.add(route("POST", "/logout", "rest")))).toBeUndefined();
    expect(thrownCode(() => table.add(route("POST", "/logout")))).toBeUndefined();
    table.add(route("DELETE", "/items/{id}", "form"));
    expect(thrownCode(() => table.add(route("DELETE", "/items/{name}", "form")))).toBe(
      "CONFIGURATION_INVALID",
    );
    expect(thrownCode(() => table.add(route("DELETE", "/items/:name", "form")))).toBe(
      "CONFIGURATION_INVALID",
    );
    expect(thrownCode(() => table.add(route("DELETE", "/items/*", "form")))).toBe("CONFIGURATION_INVALID");
  });

  it("refuses malformed patterns", () => {
    const table = new RouteTable();
    for (const bad of ["no-slash", "/a/**/b", "/a/:1x", "/a//b", "/a*", "/a/{x", "/a/{1x}", "/a/{x:(?=y)}"]) {
      expect(thrownCode(() => table.add(route("GET", bad)))).toBe("CONFIGURATION_INVALID");
    }
  });

  it("matches app routes most specific first, HEAD by GET, and reports Allow", () => {
    const table = new RouteTable()
      .add(route("GET", "/files/**"))
      .add(route("GET", "/files/{name}"))
      .add(route("GET", "/files/readme"))
      .add(route("POST", "/upload"));
    const found = (method: string, path: string) => {
      const m = table.match(method, path);
      return m.kind === "found" ? [m.route.path, m.params] : m.kind;
    };
    expect(found("GET", "/files/readme")).toEqual(["/files/readme", {}]);
    expect(found("HEAD", "/files/readme")).toEqual(["/files/readme", {}]);
    expect(found("GET", "/files/a%20b")).toEqual(["/files/{name}", { name: "a b" }]);
    expect(found("GET", "/files/a/b")).toEqual(["/files/**", { "**": "a/b" }]);
    expect(found("GET", "/other")).toBe("not-found");
    expect(table.match("GET", "/upload")).toEqual({ kind: "method-not-allowed", allow: ["POST"] });
  });

  it("stops at a literal path for the exact method, and gathers Allow from literals and matching patterns", () => {
    const table = new RouteTable()
      .add(route("POST", "/items/new"))
      .add(route("GET", "/items/{id}"))
      .add(route("PUT", "/items/{id}"))
      .add(route("ANY", "/things/mine"))
      .add(route("GET", "/things/{id}"))
      .add(route("GET", "/orders"))
      .add(route("POST", "/orders"))
      .add(route("GET", "/{section}"));
    const found = (method: string, path: string) => {
      const m = table.match(method, path);
      return m.kind === "found"
        ? [m.route.method, m.route.path]
        : m.kind === "method-not-allowed"
          ? m.allow
          : m.kind;
    };
    // The literal refuses GET; the pattern takes it.
    expect(found("GET", "/items/new")).toEqual(["GET", "/items/{id}"]);
    expect(found("POST", "/items/new")).toEqual(["POST", "/items/new"]);
    // Every route of the path refuses DELETE: the literal's and the matching patterns' methods.
    expect(found("DELETE", "/items/new")).toEqual(["GET", "HEAD", "POST", "PUT"]);
    expect(found("DELETE", "/items/7")).toEqual(["GET", "HEAD", "PUT"]);
    // A literal path beats a pattern whatever the method preference (ANY literal over GET pattern).
    expect(found("GET", "/things/mine")).toEqual(["ANY", "/things/mine"]);
    // The literal for the exact method is final; HEAD by GET is not, and still the literal.
    expect(found("GET", "/orders")).toEqual(["GET", "/orders"]);
    expect(found("HEAD", "/orders")).toEqual(["GET", "/orders"]);
    expect(found("DELETE", "/orders")).toEqual(["GET", "HEAD", "POST"]);
  });

  it("keeps chain routes out of app matching and app routes out of chain matching", () => {
    const table = new RouteTable().add(route("GET", "/api/me", "form")).add(route("GET", "/health"));
    expect(table.match("GET", "/api/me").kind).toBe("not-found");
    expect(table.matchChain("form", "GET", "/health")).toBeUndefined();
    expect(table.matchChain("form", "GET", "/api/me")?.route.path).toBe("/api/me");
    expect(table.matchChain("rest", "GET", "/api/me")).toBeUndefined();
  });

  it("matches chain routes by the exact method only: no HEAD for GET, no 405", () => {
    const table = new RouteTable().add(route("GET", "/api/me", "form"));
    expect(table.matchChain("form", "HEAD", "/api/me")).toBeUndefined();
    expect(table.matchChain("form", "POST", "/api/me")).toBeUndefined();
  });

  it("matches chain patterns with their parameters, a literal path first", () => {
    const table = new RouteTable()
      .add(route("POST", "/esc/{id}/approve", "mfa"))
      .add(route("POST", "/esc/list/approve", "mfa"))
      .add(route("DELETE", "/keys/**", "mfa"));
    expect(table.matchChain("mfa", "POST", "/esc/e%201/approve")).toMatchObject({
      route: { path: "/esc/{id}/approve" },
      params: { id: "e 1" },
    });
    expect(table.matchChain("mfa", "POST", "/esc/list/approve")?.route.path).toBe("/esc/list/approve");
    expect(table.matchChain("mfa", "DELETE", "/keys/a%2Fb/c")?.params).toEqual({ "**": "a%2Fb/c" });
  });

  it("matches canonical paths only: a pattern is compiled in canonical form", () => {
    const table = new RouteTable().add(route("GET", "/caf%c3%a9/", "form"));
    expect(table.matchChain("form", "GET", "/caf%C3%A9")).toBeDefined();
    expect(table.matchChain("form", "GET", "/caf%C3%A9/")).toBeUndefined();
  });
});

describe("RouteTable: the one path language", () => {
  it("accepts :name where routes are written and stores and echoes it as {name}", () => {
    const table = new RouteTable().add(route("GET", "/users/:id/keys/:keyId"));
    expect(table.list()[0]!.path).toBe("/users/{id}/keys/{keyId}");
    expect(table.match("GET", "/users/7/keys/k%201")).toMatchObject({
      kind: "found",
      route: { path: "/users/{id}/keys/{keyId}" },
      params: { id: "7", keyId: "k 1" },
    });
    // The message of a clash shows the {name} form too.
    expect(() => table.add(route("GET", "/users/{uid}/keys/{k}"))).toThrow(
      "Route GET /users/{uid}/keys/{k} is already registered (as test.GET /users/:id/keys/:keyId /users/{id}/keys/{keyId})",
    );
  });

  it("matches {name:regex} segments by their RE2 regex, a variable of the same rank as {name}", () => {
    const table = new RouteTable()
      .add(route("GET", "/orders/{id:\\d+}"))
      .add(route("GET", "/orders/{slug:[a-z-]+}"))
      .add(route("GET", "/orders/latest"));
    const found = (path: string) => {
      const m = table.match("GET", path);
      return m.kind === "found" ? [m.route.path, m.params] : m.kind;
    };
    expect(found("/orders/42")).toEqual(["/orders/{id:\\d+}", { id: "42" }]);
    expect(found("/orders/big-one")).toEqual(["/orders/{slug:[a-z-]+}", { slug: "big-one" }]);
    expect(found("/orders/latest")).toEqual(["/orders/latest", {}]);
    expect(found("/orders/X1")).toBe("not-found");
  });

  it("refuses a partial-segment wildcard with a clear error (policy targets only)", () => {
    for (const bad of ["/static/*.css", "/t?st", "/files/{name}.{ext}"]) {
      expect(() => new RouteTable().add(route("GET", bad))).toThrow(/accepted in policy targets only/);
    }
  });
});

describe("RouteTable: ANY and raw segments on chains", () => {
  it("prefers the exact method, then ANY (a resource answering 405 itself)", () => {
    const table = new RouteTable()
      .add(route("GET", "/users", "form"))
      .add(route("ANY", "/users", "form"))
      .add(route("GET", "/users/*", "form"))
      .add(route("ANY", "/users/*", "form"));
    expect(table.matchChain("form", "GET", "/users")?.route.method).toBe("GET");
    expect(table.matchChain("form", "PATCH", "/users")?.route.method).toBe("ANY");
    expect(table.matchChain("form", "GET", "/users/a%2Fb")).toMatchObject({
      route: { method: "GET" },
      params: { "*": "a%2Fb" },
    });
    expect(table.matchChain("form", "PUT", "/users/x")?.route.method).toBe("ANY");
  });

  it("hands a * segment over as sent, even when it does not decode", () => {
    const table = new RouteTable().add(route("GET", "/u/*", "form"));
    expect(table.matchChain("form", "GET", "/u/%E0%A4%A")?.params).toEqual({ "*": "%E0%A4%A" });
    expect(table.matchChain("form", "GET", "/u/a/b")).toBeUndefined();
    expect(thrownCode(() => table.add(route("GET", "/v/*/*", "form")))).toBe("CONFIGURATION_INVALID");
  });
});
