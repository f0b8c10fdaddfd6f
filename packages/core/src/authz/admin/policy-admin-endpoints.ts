import { z } from "zod";
import { type Authentication, currentAuthentication } from "../../identity/authentication/authentication.js";
import { type ChainRoute, resourceRoutes } from "../../identity/chain/chain-route.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { APPROVAL_STATUSES, type Policy, POLICY_SOURCES, TARGET_TYPES } from "../policy/policy.js";
import {
  MAX_REJECTION_REASON_LENGTH,
  type PolicyAdministrationService,
} from "../policy/policy-administration-service.js";
import type { PolicyFilter } from "../policy/policy-repository.js";
import { POLICY_ADMIN_CONTRACTS as C } from "./authz-admin-contracts.js";
import { parsePolicyCreate, parsePolicyUpdate } from "../policy/policy-schema.js";

/** Options of the PolicyAdminEndpoints. */
export interface PolicyAdminEndpointsOptions {
  service: PolicyAdministrationService;
  /** Where the admin API lives. Default `/admin/api/policies`. */
  basePath?: string;
}

/** Longest policy id the API looks up; anything longer is refused before the store sees it. */
export const MAX_POLICY_ID_LENGTH = 128;
/** Longest `q` search text of the list. */
export const MAX_POLICY_QUERY_LENGTH = 200;

const POLICY_ID = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_POLICY_ID_LENGTH}}$`);
const ACTIONS = ["approve", "reject", "activate", "deactivate"] as const;
type Action = (typeof ACTIONS)[number];

/** The feature of the authorization admin API in the route table. */
export const AUTHZ_ADMIN_FEATURE = "authz.admin";

const ACTION_VERBS: Record<Action, string> = {
  approve: "Approves",
  reject: "Rejects",
  activate: "Activates",
  deactivate: "Deactivates",
};

const ListQuery = z.strictObject({
  source: z.enum(POLICY_SOURCES).optional(),
  approvalStatus: z.enum(APPROVAL_STATUSES).optional(),
  isActive: z.enum(["true", "false"]).optional(),
  targetType: z.enum(TARGET_TYPES).optional(),
  q: z.string().max(MAX_POLICY_QUERY_LENGTH).optional(),
});
const LIST_PARAMS = Object.keys(ListQuery.shape);
const RejectBody = z.strictObject({ reason: z.string().max(MAX_REJECTION_REASON_LENGTH).optional() });

type Route =
  | { kind: "collection" }
  | { kind: "item"; id: string }
  | { kind: "action"; id: string; action: Action };

/**
 * The policy administration API (the PAP over JSON): `GET <base>` lists (query `source`,
 * `approvalStatus`, `isActive`, `targetType`, `q`), `POST <base>` creates (201 + Location),
 * `GET|PUT|DELETE <base>/{id}` reads, updates (body carries `version` for compare-and-set) and
 * deletes (204), `POST <base>/{id}/approve|reject|activate|deactivate` moves a policy. Only
 * administrators: checked here before the request is read, whatever the chain's static rules say.
 * Errors are thrown for the chain's exception translation; every answer, errors included, carries
 * `Cache-Control: no-store`. `<base>/simulate` is the simulator's. CSRF is the chain's job.
 */
export class PolicyAdminEndpoints {
  private readonly basePath: string;

  constructor(private readonly o: PolicyAdminEndpointsOptions) {
    this.basePath = (o.basePath ?? "/admin/api/policies").replace(/\/+$/, "");
  }

  /** The collection, an item and its four actions: each its documented methods and ANY (405). */
  routes(): ChainRoute[] {
    const base = this.basePath;
    const resource = { feature: AUTHZ_ADMIN_FEATURE, access: "admin" } as const;
    const routes = [
      ...resourceRoutes(
        { ...resource, path: base, handler: (x) => this.handle(x, { kind: "collection" }) },
        {
          GET: {
            name: "authz.policies.list",
            description: "Lists policies (source, approvalStatus, isActive, targetType, q)",
            contract: C.list,
          },
          POST: {
            name: "authz.policies.create",
            description: "Creates a policy (MANUAL or IMPORTED: NOT_REQUIRED, enforced at once; AI: PENDING)",
            contract: C.create,
          },
        },
        { name: "authz.policies.collection" },
      ),
      ...resourceRoutes(
        { ...resource, path: `${base}/*`, handler: (x, p) => this.handle(x, { kind: "item", id: p["*"]! }) },
        {
          GET: { name: "authz.policies.get", description: "Reads one policy", contract: C.get },
          PUT: {
            name: "authz.policies.update",
            description: "Updates a policy (compare-and-set on version)",
            contract: C.update,
          },
          DELETE: { name: "authz.policies.delete", description: "Deletes a policy", contract: C.delete },
        },
        { name: "authz.policies.item" },
      ),
    ];
    for (const action of ACTIONS) {
      routes.push(
        ...resourceRoutes(
          {
            ...resource,
            path: `${base}/*/${action}`,
            handler: (x, p) => this.handle(x, { kind: "action", id: p["*"]!, action }),
          },
          {
            POST: {
              name: `authz.policies.${action}`,
              description: `${ACTION_VERBS[action]} a policy`,
              contract: action === "reject" ? C.reject : C.action,
            },
          },
          { name: `authz.policies.${action}.other` },
        ),
      );
    }
    return routes;
  }

  /** Serves one request to the API (ADMIN first, then the method, then the body). */
  async handle(exchange: HttpExchange, route: Route): Promise<void> {
    // `<base>/simulate/...` is no policy's: the simulator owns `simulate`, as a path it does not serve.
    if (route.kind === "action" && route.id === "simulate") throw new PlatformError("NOT_FOUND", "Not found");
    exchange.response.headers.set("cache-control", "no-store");
    const admin = currentAuthentication(exchange);
    if (!admin) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
    this.o.service.assertAdmin(admin, `http:${exchange.method}`);
    switch (route.kind) {
      case "collection":
        return this.collection(exchange, admin);
      case "item":
        return this.item(exchange, admin, checkId(route.id));
      case "action":
        allow(exchange, ["POST"]);
        return this.action(exchange, admin, checkId(route.id), route.action);
    }
  }

  private async collection(exchange: HttpExchange, admin: Authentication): Promise<void> {
    allow(exchange, ["GET", "POST"]);
    if (exchange.method === "GET") {
      const policies = await this.o.service.list(listFilter(exchange.query), admin);
      exchange.json(200, policies.map(view));
      return;
    }
    const body = await exchange.fields(["json"]);
    const created = await this.o.service.create(parsePolicyCreate(body), admin);
    exchange.response.headers.set("location", `${this.basePath}/${encodeURIComponent(created.id)}`);
    exchange.json(201, view(created));
  }

  private async item(exchange: HttpExchange, admin: Authentication, id: string): Promise<void> {
    allow(exchange, ["GET", "PUT", "DELETE"]);
    if (exchange.method === "GET") {
      exchange.json(200, view(await this.o.service.get(id, admin)));
      return;
    }
    if (exchange.method === "DELETE") {
      await this.o.service.delete(id, admin);
      exchange.response.status = 204;
      exchange.response.body = undefined;
      exchange.response.committed = true;
      return;
    }
    const { version, ...changes } = await exchange.fields(["json"]);
    if (typeof version !== "number" || !Number.isSafeInteger(version) || version < 1) {
      throw invalid("version", "must be the positive integer version the change is based on");
    }
    const updated = await this.o.service.update(id, version, parsePolicyUpdate(changes), admin);
    exchange.json(200, view(updated));
  }

  private async action(exchange: HttpExchange, admin: Authentication, id: string, action: Action) {
    let policy: Policy;
    if (action === "reject") {
      const body = RejectBody.safeParse(await exchange.fields(["json"]));
      if (!body.success)
        throw invalid("reason", `must be a string of at most ${MAX_REJECTION_REASON_LENGTH} characters`);
      policy = await this.o.service.reject(id, admin, body.data.reason);
    } else {
      policy = await this.o.service[action](id, admin);
    }
    exchange.json(200, view(policy));
  }
}

// The answer body: every Policy field, as plain JSON.
function view(policy: Policy): Record<string, unknown> {
  return { ...policy };
}

function allow(exchange: HttpExchange, methods: readonly string[]): void {
  if (methods.includes(exchange.method)) return;
  exchange.response.headers.set("allow", methods.join(", "));
  throw new PlatformError("METHOD_NOT_ALLOWED", `Use ${methods.join(" or ")}`);
}

function checkId(id: string): string {
  if (!POLICY_ID.test(id)) {
    throw invalid("id", `must be 1 to ${MAX_POLICY_ID_LENGTH} letters, digits, '-' or '_'`);
  }
  return id;
}

function listFilter(query: URLSearchParams): PolicyFilter {
  const raw: Record<string, string> = {};
  for (const key of LIST_PARAMS) {
    const values = query.getAll(key);
    if (values.length > 1) throw invalid(key, "must be given at most once");
    if (values[0] !== undefined) raw[key] = values[0];
  }
  const parsed = ListQuery.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(String(issue?.path[0] ?? "query"), issue?.message ?? "is invalid");
  }
  const { isActive, q, ...rest } = parsed.data;
  return {
    ...rest,
    ...(isActive === undefined ? {} : { isActive: isActive === "true" }),
    ...(q === undefined || q === "" ? {} : { text: q }),
  };
}

function invalid(path: string, message: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", `The request is invalid: ${path} ${message}`, {
    details: { issues: [{ path, message }] },
  });
}
