import type { ErrorCatalog } from "@keyward/core/errors";
import type { Route, RouteContract } from "@keyward/core/web";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildOpenApiDocument } from "./openapi-document.js";
import { openApiPath } from "./openapi-paths.js";
import { renderReferencePage, routeAnchor } from "./reference-page.js";

/** A catalog over a small table, as the platform builds one from its plugins' tables. */
function catalogOf(table: Record<string, { status: number; meaning: string; remedy: string }>): ErrorCatalog {
  return {
    entry: (code) => table[code],
    statusOf: (code) => table[code]?.status ?? 500,
    statusOfError: (error) => error.status ?? table[error.code]?.status ?? 500,
    codes: () => Object.keys(table),
  };
}

const catalog = catalogOf({
  NOT_FOUND: { status: 404, meaning: "Nothing there.", remedy: "Check the id." },
  VALIDATION_FAILED: { status: 400, meaning: "Bad input.", remedy: "Fix it." },
  MALFORMED_JSON: { status: 400, meaning: "Not JSON.", remedy: "Send JSON." },
  AUTHENTICATION_REQUIRED: { status: 401, meaning: "Sign in.", remedy: "Sign in." },
  ACCESS_DENIED: { status: 403, meaning: "Not yours.", remedy: "Ask." },
  CSRF_TOKEN_INVALID: { status: 403, meaning: "CSRF.", remedy: "Send the token." },
  METHOD_NOT_ALLOWED: { status: 405, meaning: "Other method.", remedy: "Use Allow." },
  INTERNAL_ERROR: { status: 500, meaning: "Unexpected.", remedy: "Retry." },
  DEPENDENCY_MISSING: { status: 500, meaning: "Missing.", remedy: "Configure." },
});

const handler = () => undefined;
/** The value at a path of keys in the document (plain JSON), or undefined. */
function at(value: unknown, ...keys: string[]): unknown {
  let here = value;
  for (const key of keys) here = (here as Record<string, unknown> | undefined)?.[key];
  return here;
}
const CODES = (op: unknown, status: string) =>
  at(op, "responses", status, "content", "application/json", "schema", "properties", "code", "enum");
const Order = z.strictObject({ id: z.string(), item: z.string() });
const cancel: RouteContract = {
  pathParams: [{ name: "orderId", description: "The order's id" }],
  responses: { 200: { description: "Cancelled", schema: Order } },
  errors: ["NOT_FOUND", "DEPENDENCY_MISSING"],
};

function route(r: Partial<Route> & Pick<Route, "method" | "path" | "name">): Route {
  return { description: r.name, feature: "app", access: "public", handler, ...r };
}

const ROUTES: Route[] = [
  route({
    method: "DELETE",
    path: "/orders/*",
    name: "orders.cancel",
    access: "chain-rules",
    meta: { contract: cancel },
  }),
  route({
    method: "POST",
    path: "/orders",
    name: "orders.place",
    meta: {
      contract: {
        body: { schema: z.strictObject({ item: z.string().max(10) }), media: ["json", "form"] },
        responses: { 201: { description: "Placed", schema: Order } },
      },
    },
  }),
  route({
    method: "ANY",
    path: "/orders",
    name: "orders.other",
    meta: { contract: { responses: {}, errors: ["METHOD_NOT_ALLOWED"] } },
  }),
  route({ method: "GET", path: "/files/**", name: "files.get" }),
  route({ method: "GET", path: "/teams/{team:[a-z]+}/logout", name: "app.logout", chain: "a" }),
  route({ method: "GET", path: "/teams/{team:[a-z]+}/logout", name: "app.logout", chain: "b" }),
  route({ method: "POST", path: "/x/logout", name: "app.logout", chain: "a" }),
];

describe("openApiPath", () => {
  it("names `*` and `**` after the contract, keeps `{name}` and turns a regex into a pattern", () => {
    expect(openApiPath("/orders/*", cancel).template).toBe("/orders/{orderId}");
    const tail = openApiPath("/files/**", undefined);
    expect(tail.template).toBe("/files/{path}");
    expect(tail.parameters[0]!.description).toContain("may contain `/`");
    const variable = openApiPath("/teams/{team:[a-z]+}", undefined);
    expect(variable.template).toBe("/teams/{team}");
    expect(variable.parameters[0]!.schema).toEqual({ type: "string", pattern: "^(?:[a-z]+)$" });
  });
});

describe("buildOpenApiDocument", () => {
  const document = buildOpenApiDocument({ routes: ROUTES, catalog });

  it("is deterministic: the same table gives the same document, paths sorted", () => {
    const again = buildOpenApiDocument({ routes: [...ROUTES].reverse(), catalog });
    expect(Object.keys(again.paths)).toEqual(Object.keys(document.paths));
    expect(Object.keys(document.paths)).toEqual([...Object.keys(document.paths)].sort());
    expect(JSON.stringify(buildOpenApiDocument({ routes: ROUTES, catalog }))).toBe(JSON.stringify(document));
  });

  it("documents a contract's body per media type and its answers, errors from the error tables", () => {
    const place = document.paths["/orders"]!.post;
    expect(Object.keys(at(place, "requestBody", "content") as object)).toEqual([
      "application/json",
      "application/x-www-form-urlencoded",
    ]);
    expect(
      at(place, "requestBody", "content", "application/json", "schema", "properties", "item", "maxLength"),
    ).toBe(10);
    expect(at(place, "responses", "201", "content", "application/json", "schema", "required")).toEqual([
      "id",
      "item",
    ]);
    const del = document.paths["/orders/{orderId}"]!.delete;
    expect(CODES(del, "404")).toEqual(["NOT_FOUND"]);
    // A 5xx other than 503 hides its code: the document promises only INTERNAL_ERROR.
    expect(CODES(del, "500")).toEqual(["INTERNAL_ERROR"]);
    expect(CODES(del, "403")).toEqual(["ACCESS_DENIED", "CSRF_TOKEN_INVALID"]);
    expect(at(del, "security")).toEqual([{ session: [] }, { bearer: [] }]);
  });

  it("expands ANY into the methods its path has no other route for, answering 405", () => {
    const item = document.paths["/orders"]!;
    expect(Object.keys(item)).toEqual(["get", "post", "put", "patch", "delete"]);
    expect((item.post as { operationId: string }).operationId).toBe("orders.place");
    expect(at(item.put, "responses", "405")).toBeDefined();
  });

  it("keeps one operation for one method and path on several chains, and unique operation ids", () => {
    const get = document.paths["/teams/{team}/logout"]!.get;
    expect(at(get, "x-keyward-chains")).toEqual(["a", "b"]);
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((op) => (op as { operationId: string }).operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain("app.logout~2");
  });

  it("documents a route without a contract by what the table knows, with a default answer", () => {
    const files = document.paths["/files/{path}"]!.get;
    expect(at(files, "summary")).toBe("files.get");
    expect(at(files, "responses", "default", "description")).toContain("names no contract");
  });
});

describe("renderReferencePage", () => {
  const document = buildOpenApiDocument({ routes: ROUTES, catalog });
  const html = renderReferencePage(document, "/openapi.json");

  it("has one anchor per route name and no script", () => {
    for (const name of new Set(ROUTES.map((r) => r.name))) {
      expect(html).toContain(`<section id="${routeAnchor(name)}">`);
    }
    expect(html).toContain('id="orders.cancel"');
    expect(html).not.toMatch(/<script|\son[a-z]+=/i);
  });

  it("escapes what it shows (a hostile description cannot inject markup)", () => {
    const hostile = route({
      method: "GET",
      path: "/h",
      name: "h.x",
      description: '<img src=x onerror="alert(1)">',
    });
    const page = renderReferencePage(buildOpenApiDocument({ routes: [hostile], catalog }), "/openapi.json");
    expect(page).not.toContain("<img");
    expect(page).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });

  it("anchors a name with spaces with dashes (an HTML id holds no space)", () => {
    expect(routeAnchor("app.GET /api/orders")).toBe("app.GET-/api/orders");
  });
});
