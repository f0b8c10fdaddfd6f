import type { ErrorCatalog } from "@keyward/core/errors";
import type { Route, RouteContract } from "@keyward/core/web";
import type { ZodType } from "zod";
import {
  ERROR_BODY_SCHEMA,
  errorCodeTable,
  errorCodesOf,
  errorResponses,
  type ResponseObject,
} from "./openapi-errors.js";
import { openApiPath, type PathParameter } from "./openapi-paths.js";

/** An OpenAPI 3.1 document as plain JSON. */
export type OpenApiDocument = {
  openapi: "3.1.0";
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, unknown>;
  [extension: `x-${string}`]: unknown;
};

/** What the document is built from: the platform's route table and its error catalog. */
export interface OpenApiOptions {
  routes: readonly Route[];
  catalog: ErrorCatalog;
  /** The document's `info.title` (default `Keyward platform`). */
  title?: string;
  /** The document's `info.version` (default `0.1.0`). */
  version?: string;
}

/** The operation methods of OpenAPI, in the order the document lists them. */
const METHODS = ["get", "head", "post", "put", "patch", "delete", "options"] as const;
/** The methods an `ANY` route is documented under when no other route of its path takes them. */
const ANY_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

const MEDIA = {
  json: "application/json",
  form: "application/x-www-form-urlencoded",
  html: "text/html",
  javascript: "text/javascript",
  text: "text/plain",
} as const;

/** One operation before it is written: the route, its method and its OpenAPI path. */
interface Placed {
  route: Route;
  /** The chains that serve this method and path (several chains may declare one route, `/api/me`). */
  chains: string[];
  method: string;
  template: string;
  parameters: PathParameter[];
}

/**
 * The OpenAPI 3.1 document of a platform, from its route table alone (pure, deterministic: paths
 * sorted, methods in a fixed order, no clock). Every route is an operation: chain routes and
 * application routes alike; the same method and path on several chains is one operation (its
 * `x-keyward-chains` lists them); `HEAD` twins are `head` operations; an `ANY` route is documented
 * under each method its path has no other route for. A route's `meta.contract` (RouteContract)
 * gives its parameters, body and answers; error answers come from the error tables.
 */
export function buildOpenApiDocument(options: OpenApiOptions): OpenApiDocument {
  const placed = placeRoutes(options.routes);
  const ids = operationIds(placed);
  const paths: Record<string, Record<string, unknown>> = {};
  const byPath = new Map<string, Placed[]>();
  for (const p of placed) byPath.set(p.template, [...(byPath.get(p.template) ?? []), p]);
  for (const template of [...byPath.keys()].sort(cmp)) {
    const item: Record<string, unknown> = {};
    for (const method of METHODS) {
      const here = byPath.get(template)!.find((p) => p.method === method.toUpperCase());
      if (here) item[method] = operation(here, ids.get(here)!, options.catalog);
    }
    paths[template] = item;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: options.title ?? "Keyward platform",
      version: options.version ?? "0.1.0",
      description: "Every endpoint of the platform's route table (generated; see docs/openapi.md).",
    },
    paths,
    components: { schemas: { ErrorBody: ERROR_BODY_SCHEMA }, securitySchemes: SECURITY_SCHEMES },
    "x-keyward-error-codes": errorCodeTable(
      placed.flatMap((p) => errorCodesOf(p.route, contractOf(p.route), options.catalog)),
      options.catalog,
    ),
  };
}

const SECURITY_SCHEMES = {
  session: {
    type: "apiKey",
    in: "cookie",
    name: "SESSION",
    description: "The session cookie (platform.session.cookie-name)",
  },
  bearer: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "An access token of an .oauth2() chain",
  },
  mfaBinding: {
    type: "apiKey",
    in: "header",
    name: "X-MFA-Binding",
    description: "A token MFA flow's binding",
  },
};

/** Every route placed at its OpenAPI path and method(s). */
function placeRoutes(routes: readonly Route[]): Placed[] {
  const placed: Placed[] = [];
  const seen = new Map<string, Placed>();
  // One template per path shape: `/a/{userId}` and `/a/{segment}` would be two paths OpenAPI calls identical.
  const byShape = new Map<string, ReturnType<typeof openApiPath>>();
  const put = (route: Route, method: string, written: ReturnType<typeof openApiPath>) => {
    const shape = written.template.replace(/\{[^}]*\}/g, "{}");
    const path = byShape.get(shape) ?? written;
    byShape.set(shape, path);
    const key = `${method} ${path.template}`;
    const known = seen.get(key);
    if (known) {
      if (route.chain !== undefined && !known.chains.includes(route.chain)) known.chains.push(route.chain);
      return;
    }
    const entry: Placed = {
      route,
      chains: route.chain === undefined ? [] : [route.chain],
      method,
      template: path.template,
      parameters: path.parameters,
    };
    seen.set(key, entry);
    placed.push(entry);
  };
  for (const route of routes) {
    if (route.method !== "ANY") put(route, route.method, openApiPath(route.path, contractOf(route)));
  }
  for (const route of routes) {
    if (route.method !== "ANY") continue;
    const path = openApiPath(route.path, contractOf(route));
    for (const method of ANY_METHODS) put(route, method, path);
  }
  return placed;
}

/** Operation ids: the route's name, suffixed `~2`, `~3`... (in path order) when a name has several operations. */
function operationIds(placed: readonly Placed[]): Map<Placed, string> {
  const sorted = [...placed].sort(
    (a, b) =>
      cmp(a.template, b.template) || METHODS.indexOf(lower(a.method)) - METHODS.indexOf(lower(b.method)),
  );
  const count = new Map<string, number>();
  const ids = new Map<Placed, string>();
  for (const p of sorted) {
    const n = (count.get(p.route.name) ?? 0) + 1;
    count.set(p.route.name, n);
    ids.set(p, n === 1 ? p.route.name : `${p.route.name}~${n}`);
  }
  return ids;
}

function operation(here: Placed, operationId: string, catalog: ErrorCatalog): Record<string, unknown> {
  const { route, method, parameters, chains } = here;
  const contract = contractOf(route);
  const other = route.method === "ANY" && method !== "ANY";
  const op: Record<string, unknown> = {
    operationId,
    summary: route.description || route.name,
    tags: [route.feature],
    parameters: [...parameters, ...queryParameters(contract)],
    responses: responses(route, contract, catalog),
    security: securityOf(route),
    "x-keyward-route": route.name,
    "x-keyward-access": route.access,
  };
  if (other) op["x-keyward-any-method"] = true;
  if (chains.length > 0) op["x-keyward-chains"] = chains;
  const body = requestBody(contract);
  if (body) op.requestBody = body;
  return op;
}

function securityOf(route: Route): Record<string, string[]>[] {
  if (route.access === "public" || route.access === "reset-link") return [];
  if (route.access === "mfa-flow") return [{ session: [] }, { mfaBinding: [] }];
  return [{ session: [] }, { bearer: [] }];
}

function queryParameters(contract: RouteContract | undefined): unknown[] {
  if (!contract?.query) return [];
  const schema = jsonSchema(contract.query, "input") as {
    properties?: Record<string, unknown>;
    required?: string[];
  };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property as { description?: string };
    return {
      name,
      in: "query",
      required: (schema.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

function requestBody(contract: RouteContract | undefined): unknown {
  if (!contract?.body) return undefined;
  const schema = jsonSchema(contract.body.schema, "input");
  const content: Record<string, unknown> = {};
  for (const media of contract.body.media) content[MEDIA[media]] = { schema };
  return { required: contract.body.required ?? true, content };
}

function responses(
  route: Route,
  contract: RouteContract | undefined,
  catalog: ErrorCatalog,
): Record<string, unknown> {
  const out = new Map<string, ResponseObject>();
  for (const [status, answer] of Object.entries(contract?.responses ?? {})) {
    const media = answer.media ?? (answer.schema ? "json" : "none");
    const response: ResponseObject = { description: answer.description };
    if (media !== "none") {
      response.content = {
        [MEDIA[media]]: { schema: answer.schema ? jsonSchema(answer.schema, "output") : {} },
      };
    }
    if (answer.headers) {
      response.headers = Object.fromEntries(
        Object.entries(answer.headers).map(([name, description]) => [
          name,
          { description, schema: { type: "string" } },
        ]),
      );
    }
    out.set(status, response);
  }
  const routeErrors = contract?.errorSchema ? jsonSchema(contract.errorSchema, "output") : undefined;
  for (const [status, response] of errorResponses(
    errorCodesOf(route, contract, catalog),
    catalog,
    routeErrors,
  )) {
    const own = out.get(String(status));
    out.set(String(status), own ? merged(own, response) : response);
  }
  if (route.access !== "public" && route.access !== "reset-link" && !out.has("302")) {
    out.set("302", {
      description: "A browser without a sign-in is sent to the sign-in page (on a chain that has one)",
      headers: { location: { description: "The sign-in page", schema: { type: "string" } } },
    });
  }
  if (!contract)
    out.set("default", { description: `Not declared (the route names no contract): ${route.description}` });
  return Object.fromEntries([...out].sort(([a], [b]) => cmp(a, b)));
}

/**
 * The route's own answer and the error answers of one status as one response: both bodies by media
 * type (an HTML form page and a JSON error), `anyOf` where both are JSON.
 */
function merged(own: ResponseObject, error: ResponseObject): ResponseObject {
  const content = { ...((own.content as Record<string, { schema: unknown }>) ?? {}) };
  for (const [media, body] of Object.entries(error.content as Record<string, { schema: unknown }>)) {
    const mine = content[media];
    content[media] = mine ? { schema: { anyOf: [mine.schema, body.schema] } } : body;
  }
  return { ...own, description: `${own.description}\n\n${error.description}`, content };
}

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), without its `$schema`. */
function jsonSchema(schema: ZodType, io: "input" | "output"): Record<string, unknown> {
  const cache = io === "input" ? INPUT_SCHEMAS : OUTPUT_SCHEMAS;
  const known = cache.get(schema);
  if (known) return known;
  const { $schema: _dialect, ...rest } = schema.toJSONSchema({
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  });
  cache.set(schema, rest);
  return rest;
}

/** Converted schemas, once per zod schema (contracts share them: the sign-in answers, a user, a policy). */
const INPUT_SCHEMAS = new WeakMap<ZodType, Record<string, unknown>>();
const OUTPUT_SCHEMAS = new WeakMap<ZodType, Record<string, unknown>>();

function contractOf(route: Route): RouteContract | undefined {
  return route.meta?.contract as RouteContract | undefined;
}

function lower(method: string): (typeof METHODS)[number] {
  return method.toLowerCase() as (typeof METHODS)[number];
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
