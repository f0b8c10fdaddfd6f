import { z } from "zod";
import { UNSAFE_TEXT } from "../kernel/unsafe-text.js";
import { type Authentication, currentAuthentication } from "../identity/authentication/authentication.js";
import { type ChainRoute, resourceRoutes } from "../identity/chain/chain-route.js";
import { PlatformError } from "../kernel/platform-error.js";
import { jsonAnswer, pathParam } from "../web/contract-parts.js";
import type { HttpExchange } from "../web/http-exchange.js";
import type { RouteContract } from "../web/route-contract.js";
import { RESOURCE_STATUSES, RESOURCE_TYPES } from "./managed-resource.js";
import { MANAGED_RESOURCE_MAX_PAGE } from "./managed-resource-repository.js";
import type { ManagedResourceService, ResourceDetail } from "./managed-resource-service.js";
import { RESOURCE_ACTIONS, type ResourceAction } from "./resource-lifecycle.js";
import { AUTHZ_ADMIN_FEATURE } from "../authz/admin/policy-admin-endpoints.js";

/** Longest resource id the API looks up; anything longer is refused before the store sees it. */
export const MAX_RESOURCE_ID_LENGTH = 128;
/** Longest `q` and `serviceOwner` of the list. */
export const MAX_RESOURCE_QUERY_LENGTH = 200;
/** Longest friendly name and description an administrator may enter on define. */
export const MAX_RESOURCE_NAME_LENGTH = 200;
export const MAX_RESOURCE_DESCRIPTION_LENGTH = 2_000;
/** Page size of the list when `limit` is not given (the hard maximum is MANAGED_RESOURCE_MAX_PAGE). */
export const DEFAULT_RESOURCE_PAGE = 50;

const RESOURCE_ID = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_RESOURCE_ID_LENGTH}}$`);
const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
const ListQuery = z.strictObject({
  status: z.enum(RESOURCE_STATUSES).optional(),
  type: z.enum(RESOURCE_TYPES).optional(),
  serviceOwner: z.string().min(1).max(MAX_RESOURCE_QUERY_LENGTH).optional(),
  q: z.string().max(MAX_RESOURCE_QUERY_LENGTH).optional(),
  offset: integer(0, 1_000_000_000).optional(),
  limit: integer(0, MANAGED_RESOURCE_MAX_PAGE).optional(),
});
const LIST_PARAMS = Object.keys(ListQuery.shape);
const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((s) => !UNSAFE_TEXT.test(s), "must not contain control or format characters");
const version = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const DefineBody = z.strictObject({
  friendlyName: text(MAX_RESOURCE_NAME_LENGTH).optional(),
  description: text(MAX_RESOURCE_DESCRIPTION_LENGTH).optional(),
  version: version.optional(),
});
const MoveBody = z.strictObject({ version: version.optional() });

// What the API answers: a resource with its permission and policy views, or a page of resources.
const ResourceJson = z.looseObject({
  id: z.string(),
  resourceIdentifier: z.string(),
  resourceType: z.enum(RESOURCE_TYPES),
  status: z.enum(RESOURCE_STATUSES),
  friendlyName: z.string(),
  description: z.string(),
  version: z.number().int(),
});
const ResourceDetailJson = ResourceJson.extend({
  connectedPolicies: z.array(z.looseObject({})),
  impact: z.looseObject({}),
});
const RESOURCE_ID_PARAM = [pathParam("resourceId", "The managed resource's id (letters, digits, `-`, `_`)")];
const ONE_RESOURCE = jsonAnswer(
  "The resource with its permission, connected policies and impact",
  ResourceDetailJson,
);
const MOVE_ERRORS = ["VALIDATION_FAILED", "NOT_FOUND", "CONFLICT", "ILLEGAL_STATE_TRANSITION"];

/** The managed-resource admin API's contracts (its OpenAPI operations). */
const CONTRACTS = {
  list: {
    query: ListQuery,
    responses: {
      200: jsonAnswer(
        "A page of resources",
        z.strictObject({
          items: z.array(ResourceJson),
          total: z.number().int(),
          offset: z.number(),
          limit: z.number(),
        }),
      ),
    },
    errors: ["VALIDATION_FAILED"],
  },
  get: {
    pathParams: RESOURCE_ID_PARAM,
    responses: { 200: ONE_RESOURCE },
    errors: ["VALIDATION_FAILED", "NOT_FOUND"],
  },
  define: {
    pathParams: RESOURCE_ID_PARAM,
    body: { schema: DefineBody, media: ["json"] },
    responses: { 200: ONE_RESOURCE },
    errors: MOVE_ERRORS,
  },
  move: {
    pathParams: RESOURCE_ID_PARAM,
    body: { schema: MoveBody, media: ["json"] },
    responses: { 200: ONE_RESOURCE },
    errors: MOVE_ERRORS,
  },
} as const satisfies Record<string, RouteContract>;

const VERBS: Record<ResourceAction, string> = {
  define: "Defines a resource as a permission (NEEDS_DEFINITION to PERMISSION_CREATED)",
  exclude: "Excludes a resource from authorization management (NEEDS_DEFINITION to EXCLUDED)",
  restore: "Restores an excluded resource (EXCLUDED to NEEDS_DEFINITION)",
};

/**
 * The managed-resource admin API: `GET <base>` lists (query `status`, `type`, `serviceOwner`, `q`,
 * `offset`, `limit` up to MANAGED_RESOURCE_MAX_PAGE), `GET <base>/{id}` reads one with its
 * permission, connected policies and impact, `POST <base>/{id}/define|exclude|restore` moves it
 * (JSON body, optional `version` for compare-and-set). ADMIN only, checked before the request is
 * read; CSRF is the chain's; every answer carries `Cache-Control: no-store`.
 */
export class ResourceAdminEndpoints {
  private readonly basePath: string;

  constructor(private readonly o: { service: ManagedResourceService; basePath?: string }) {
    this.basePath = (o.basePath ?? "/admin/api/resources").replace(/\/+$/, "");
  }

  /** The collection, an item and its three actions, each with its method and ANY (405). */
  routes(): ChainRoute[] {
    const base = this.basePath;
    const common = { feature: AUTHZ_ADMIN_FEATURE, access: "admin" } as const;
    const routes = [
      ...resourceRoutes(
        { ...common, path: base, handler: (x) => this.list(x) },
        {
          GET: {
            name: "authz.resources.list",
            description: "Lists managed resources (status, type, serviceOwner, q, offset, limit)",
            contract: CONTRACTS.list,
          },
        },
        { name: "authz.resources.collection" },
      ),
      ...resourceRoutes(
        { ...common, path: `${base}/*`, handler: (x, p) => this.get(x, p["*"]!) },
        {
          GET: {
            name: "authz.resources.get",
            description: "Reads a managed resource with its policies and impact",
            contract: CONTRACTS.get,
          },
        },
        { name: "authz.resources.item" },
      ),
    ];
    for (const action of RESOURCE_ACTIONS) {
      routes.push(
        ...resourceRoutes(
          { ...common, path: `${base}/*/${action}`, handler: (x, p) => this.act(x, p["*"]!, action) },
          {
            POST: {
              name: `authz.resources.${action}`,
              description: VERBS[action],
              contract: action === "define" ? CONTRACTS.define : CONTRACTS.move,
            },
          },
          { name: `authz.resources.${action}.other` },
        ),
      );
    }
    return routes;
  }

  private admin(exchange: HttpExchange, methods: readonly string[]): Authentication {
    exchange.response.headers.set("cache-control", "no-store");
    const admin = currentAuthentication(exchange);
    if (!admin) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
    this.o.service.assertAdmin(admin, `http:${exchange.method}`);
    if (!methods.includes(exchange.method)) {
      exchange.response.headers.set("allow", methods.join(", "));
      throw new PlatformError("METHOD_NOT_ALLOWED", `Use ${methods.join(" or ")}`);
    }
    return admin;
  }

  private async list(exchange: HttpExchange): Promise<void> {
    const admin = this.admin(exchange, ["GET"]);
    const { status, type, serviceOwner, q, offset, limit } = listQuery(exchange.query);
    const page = await this.o.service.list(
      {
        ...(status ? { status } : {}),
        ...(type ? { resourceType: type } : {}),
        ...(serviceOwner ? { serviceOwner } : {}),
        ...(q ? { text: q } : {}),
      },
      { offset: offset ?? 0, limit: limit ?? DEFAULT_RESOURCE_PAGE },
      admin,
    );
    exchange.json(200, {
      items: page.items,
      total: page.total,
      offset: offset ?? 0,
      limit: limit ?? DEFAULT_RESOURCE_PAGE,
    });
  }

  private async get(exchange: HttpExchange, id: string): Promise<void> {
    const admin = this.admin(exchange, ["GET"]);
    exchange.json(200, view(await this.o.service.get(checkId(id), admin)));
  }

  private async act(exchange: HttpExchange, id: string, action: ResourceAction): Promise<void> {
    const admin = this.admin(exchange, ["POST"]);
    checkId(id);
    const raw = await exchange.fields(["json"]);
    if (action === "define") {
      const body = parse(DefineBody, raw);
      exchange.json(200, view(await this.o.service.define(id, body, admin)));
      return;
    }
    const { version: v } = parse(MoveBody, raw);
    exchange.json(200, view(await this.o.service[action](id, admin, v)));
  }
}

// The answer body: the resource's fields with its permission, and the two policy views.
function view(detail: ResourceDetail): Record<string, unknown> {
  return { ...detail.resource, connectedPolicies: detail.connected, impact: detail.impact };
}

function checkId(id: string): string {
  if (!RESOURCE_ID.test(id))
    throw invalid("id", `must be 1 to ${MAX_RESOURCE_ID_LENGTH} letters, digits, '-' or '_'`);
  return id;
}

function listQuery(query: URLSearchParams): z.infer<typeof ListQuery> {
  const raw: Record<string, string> = {};
  for (const key of new Set(query.keys())) {
    if (!LIST_PARAMS.includes(key)) throw invalid("query", `takes only ${LIST_PARAMS.join(", ")}`);
    const values = query.getAll(key);
    if (values.length > 1) throw invalid(key, "must be given at most once");
    raw[key] = values[0]!;
  }
  return parse(ListQuery, raw);
}

function parse<T extends z.ZodType>(schema: T, raw: unknown): z.infer<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw invalid(issue?.path.map(String).join(".") || "body", issue?.message ?? "is invalid");
}

function invalid(path: string, message: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", `The request is invalid: ${path} ${message}`, {
    details: { issues: [{ path, message }] },
  });
}
