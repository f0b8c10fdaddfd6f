import type { OpenApiDocument } from "./openapi-document.js";

type Operation = {
  operationId: string;
  summary: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: unknown }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
  "x-keyward-route": string;
  "x-keyward-access": string;
  "x-keyward-chains"?: string[];
};

/** Escapes text for HTML content and attribute values. */
function esc(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/**
 * The anchor of a route on the reference page: its name, each run of whitespace as `-` (an HTML id
 * holds none), so `orders.cancel` is `#orders.cancel` and `app.GET /` is `#app.GET-/`.
 */
export function routeAnchor(name: string): string {
  return name.replace(/\s+/g, "-");
}

/**
 * The REST reference page of an OpenAPI document, rendered on the server: plain HTML with no script
 * (the platform's CSP holds), one section per route name with `id` the route's name (`#orders.cancel`,
 * the anchors managed resources' `apiDocsUrl` point at), listing each of its operations' method, path,
 * parameters, body and answers.
 */
export function renderReferencePage(document: OpenApiDocument, documentUrl: string): string {
  const byRoute = new Map<string, { method: string; path: string; op: Operation }[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      const list = byRoute.get(op["x-keyward-route"]) ?? [];
      list.push({ method: method.toUpperCase(), path, op });
      byRoute.set(op["x-keyward-route"], list);
    }
  }
  const names = [...byRoute.keys()].sort();
  const toc = names.map((name) => `<li><a href="#${esc(routeAnchor(name))}">${esc(name)}</a></li>`).join("");
  const sections = names.map((name) => routeSection(name, byRoute.get(name)!)).join("\n");
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${esc(document.info.title)}: REST reference</title>`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    "</head><body>",
    `<h1>${esc(document.info.title)} ${esc(document.info.version)}: REST reference</h1>`,
    `<p>Generated from the route table. The machine-readable document: <a href="${esc(documentUrl)}">${esc(documentUrl)}</a> (OpenAPI ${esc(document.openapi)}).</p>`,
    `<nav><h2>Routes</h2><ul>${toc}</ul></nav>`,
    sections,
    errorCodesSection(document),
    "</body></html>",
  ].join("\n");
}

function routeSection(name: string, ops: readonly { method: string; path: string; op: Operation }[]): string {
  const first = ops[0]!.op;
  const chains = [...new Set(ops.flatMap((o) => o.op["x-keyward-chains"] ?? []))];
  return [
    `<section id="${esc(routeAnchor(name))}">`,
    `<h2><code>${esc(name)}</code></h2>`,
    `<p>${esc(first.summary)}</p>`,
    `<p>Access: <code>${esc(first["x-keyward-access"])}</code>${chains.length ? `; chains: ${chains.map((c) => `<code>${esc(c)}</code>`).join(", ")}` : ""}</p>`,
    ...ops.map(operationBlock),
    "</section>",
  ].join("\n");
}

function operationBlock({ method, path, op }: { method: string; path: string; op: Operation }): string {
  const params = (op.parameters ?? [])
    .map(
      (p) =>
        `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${p.required ? "yes" : "no"}</td><td>${esc(p.description ?? "")}</td><td>${schemaBlock(p.schema)}</td></tr>`,
    )
    .join("");
  const body = op.requestBody
    ? Object.entries(op.requestBody.content)
        .map(
          ([media, { schema }]) =>
            `<p>Body (<code>${esc(media)}</code>${op.requestBody?.required === false ? ", optional" : ""}):</p>${schemaBlock(schema)}`,
        )
        .join("")
    : "";
  const answers = Object.entries(op.responses)
    .map(([status, r]) => {
      const content = Object.entries(r.content ?? {})
        .map(([media, { schema }]) => `<code>${esc(media)}</code>${schemaBlock(schema)}`)
        .join("");
      return `<tr><td>${esc(status)}</td><td>${esc(r.description)}</td><td>${content}</td></tr>`;
    })
    .join("");
  return [
    `<h3 id="${esc(routeAnchor(op.operationId))}--op"><code>${esc(method)} ${esc(path)}</code></h3>`,
    params
      ? `<table><tr><th>parameter</th><th>in</th><th>required</th><th>description</th><th>schema</th></tr>${params}</table>`
      : "",
    body,
    `<table><tr><th>status</th><th>answer</th><th>body</th></tr>${answers}</table>`,
  ].join("\n");
}

function schemaBlock(schema: unknown): string {
  if (
    schema === undefined ||
    (typeof schema === "object" && schema !== null && Object.keys(schema).length === 0)
  ) {
    return "";
  }
  return `<pre>${esc(JSON.stringify(schema, null, 2))}</pre>`;
}

/** The error codes the document names, with status, meaning and remedy (anchors `#error-<CODE>`). */
function errorCodesSection(document: OpenApiDocument): string {
  const table = (document["x-keyward-error-codes"] ?? {}) as Record<
    string,
    { status: number; meaning: string; remedy: string }
  >;
  const rows = Object.entries(table)
    .map(
      ([code, e]) =>
        `<tr id="error-${esc(code)}"><td><code>${esc(code)}</code></td><td>${e.status}</td><td>${esc(e.meaning)}</td><td>${esc(e.remedy)}</td></tr>`,
    )
    .join("");
  return `<section id="error-codes"><h2>Error codes</h2><p>Every error answer is <code>{ code, message, correlationId? }</code>.</p><table><tr><th>code</th><th>status</th><th>meaning</th><th>remedy</th></tr>${rows}</table></section>`;
}
