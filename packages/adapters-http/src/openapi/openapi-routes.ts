import { createHash } from "node:crypto";
import type { Platform } from "@keyward/core";
import { ErrorCatalog } from "@keyward/core/errors";
import { type HttpExchange, RouteTable } from "@keyward/core/web";
import type { RouteDefinition } from "../route-registry.js";
import { buildOpenApiDocument, type OpenApiDocument } from "./openapi-document.js";
import { renderReferencePage } from "./reference-page.js";

/** Where the OpenAPI document is served. */
export const OPENAPI_PATH = "/openapi.json";

/** How long a client or cache may keep the document and the page (they change only with the routes). */
const CACHE_CONTROL = "public, max-age=300";

interface Rendered {
  readonly size: number;
  readonly json: string;
  readonly html: string;
  readonly etagJson: string;
  readonly etagHtml: string;
}

/**
 * The platform's document, built from its route table on first use and again only when routes were
 * added since (the table grows; it never changes a route in place).
 */
function documentSource(platform: Pick<Platform, "resolve">): () => Rendered {
  let rendered: Rendered | undefined;
  return () => {
    const routes = platform.resolve(RouteTable).list();
    if (rendered?.size === routes.length) return rendered;
    const document: OpenApiDocument = buildOpenApiDocument({
      routes,
      catalog: platform.resolve(ErrorCatalog),
    });
    const json = JSON.stringify(document);
    const html = renderReferencePage(document, OPENAPI_PATH);
    rendered = { size: routes.length, json, html, etagJson: etag(json), etagHtml: etag(html) };
    return rendered;
  };
}

function etag(text: string): string {
  return `"${createHash("sha256").update(text).digest("base64url").slice(0, 27)}"`;
}

/** Answers 304 when the client holds this version; else sets the caching headers. True when answered. */
function notModified(exchange: HttpExchange, tag: string): boolean {
  exchange.response.headers.set("cache-control", CACHE_CONTROL);
  exchange.response.headers.set("etag", tag);
  const held = exchange.header("if-none-match");
  if (held === undefined || !held.split(",").some((t) => t.trim() === tag || t.trim() === `W/${tag}`))
    return false;
  exchange.response.status = 304;
  exchange.response.committed = true;
  return true;
}

/**
 * `GET /openapi.json` and `GET <rest-docs-path>`: the OpenAPI 3.1 document of the platform's route
 * table and its REST reference page (public, cacheable with an ETag). Both describe the table as it is
 * when asked, host routes included.
 */
export function openApiRoutes(platform: Pick<Platform, "resolve">, docsPath: string): RouteDefinition[] {
  const source = documentSource(platform);
  const common = { feature: "http", access: "public", callerContext: false } as const;
  return [
    {
      ...common,
      method: "GET",
      path: OPENAPI_PATH,
      name: "http.openapi",
      description: "The OpenAPI 3.1 document of every route of the route table",
      meta: { contract: OPENAPI_CONTRACT },
      handler: (exchange) => {
        const rendered = source();
        if (notModified(exchange, rendered.etagJson)) return;
        exchange.response.status = 200;
        exchange.response.headers.set("content-type", "application/json; charset=utf-8");
        exchange.response.body = rendered.json;
        exchange.response.committed = true;
      },
    },
    {
      ...common,
      method: "GET",
      path: docsPath,
      name: "http.rest-docs",
      description: "The REST reference page: one section per route, anchored by route name",
      meta: { contract: REFERENCE_CONTRACT },
      handler: (exchange) => {
        const rendered = source();
        if (notModified(exchange, rendered.etagHtml)) return;
        exchange.html(200, rendered.html);
      },
    },
  ];
}

const CACHED = {
  description: "Not modified: the client's ETag (If-None-Match) is current",
  media: "none",
} as const;

const OPENAPI_CONTRACT = {
  responses: {
    200: {
      description: "The document (application/json)",
      media: "json",
      headers: { etag: "The document's version" },
    },
    304: CACHED,
  },
} as const;

const REFERENCE_CONTRACT = {
  responses: {
    200: { description: "The reference page", media: "html", headers: { etag: "The page's version" } },
    304: CACHED,
  },
} as const;
