import { z } from "zod";
import { currentAuthentication } from "../../identity/authentication/authentication.js";
import { type ChainRoute, resourceRoutes } from "../../identity/chain/chain-route.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { jsonAnswer } from "../../web/contract-parts.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { RouteContract } from "../../web/route-contract.js";
import type { PolicyAdministrationService } from "../policy/policy-administration-service.js";
import type { StaticRuleService } from "../static-rules/static-rule-service.js";
import { AUTHZ_ADMIN_FEATURE } from "./policy-admin-endpoints.js";

/** Most keys one import names. */
export const MAX_IMPORT_KEYS = 500;

/** `POST .../static-rules/import`: every importable rule, or the rules of the keys the listing gave. */
const ImportBody = z.union([
  z.strictObject({ all: z.literal(true) }),
  z.strictObject({ keys: z.array(z.string().min(1).max(300)).min(1).max(MAX_IMPORT_KEYS) }),
]);

const StaticRuleJson = z.looseObject({
  key: z.string(),
  chain: z.string(),
  position: z.number().int(),
  pattern: z.string().nullable(),
  method: z.string(),
  matcher: z.string(),
  rule: z.looseObject({ kind: z.string() }),
  importable: z.boolean(),
  reason: z.string().optional(),
  mapping: z.looseObject({ effect: z.string(), expression: z.string() }).optional(),
  importedAs: z.string().nullable(),
  shadows: z.array(z.looseObject({ policyId: z.string(), name: z.string() })),
});
const KeyPolicy = z.array(z.looseObject({ key: z.string(), policyId: z.string() }));

/** The static-rule endpoints' contracts. */
export const STATIC_RULE_CONTRACTS = {
  list: {
    responses: { 200: jsonAnswer("The static rules of this platform's chains", z.array(StaticRuleJson)) },
    errors: [],
  },
  import: {
    body: { schema: ImportBody, media: ["json"] },
    responses: {
      200: jsonAnswer(
        "What the import did, key by key",
        z.strictObject({
          created: KeyPolicy,
          existing: KeyPolicy,
          refused: z.array(z.looseObject({ key: z.string(), reason: z.string() })),
        }),
      ),
    },
    errors: ["VALIDATION_FAILED", "POLICY_EXPRESSION_INVALID", "CONFLICT"],
  },
} as const satisfies Record<string, RouteContract>;

/** Options of the StaticRuleEndpoints. */
export interface StaticRuleEndpointsOptions {
  rules: StaticRuleService;
  /** For the admin check (audited when refused). */
  service: Pick<PolicyAdministrationService, "assertAdmin">;
  /** Default `/admin/api/policies/static-rules`. */
  path?: string;
}

/**
 * `GET /admin/api/policies/static-rules` lists this platform's static rules (importable or why not,
 * the mapped expression, the policies each shadows, what each was imported as);
 * `POST /admin/api/policies/static-rules/import` with `{ all: true }` or `{ keys: [...] }` imports
 * them as IMPORTED policies, idempotently, audited. ROLE_ADMIN; CSRF is the chain's.
 */
export class StaticRuleEndpoints {
  private readonly path: string;

  constructor(private readonly o: StaticRuleEndpointsOptions) {
    this.path = (o.path ?? "/admin/api/policies/static-rules").replace(/\/+$/, "");
  }

  /** The listing and the import, each its method and ANY (405). */
  routes(): ChainRoute[] {
    const resource = { feature: AUTHZ_ADMIN_FEATURE, access: "admin" } as const;
    return [
      ...resourceRoutes(
        { ...resource, path: this.path, handler: (x) => this.handle(x, "GET") },
        {
          GET: {
            name: "authz.policies.static-rules",
            description: "Lists this platform's static rules: importable or why not, shadows, imported as",
            contract: STATIC_RULE_CONTRACTS.list,
          },
        },
        { name: "authz.policies.static-rules.other" },
      ),
      ...resourceRoutes(
        { ...resource, path: `${this.path}/import`, handler: (x) => this.handle(x, "POST") },
        {
          POST: {
            name: "authz.policies.static-rules.import",
            description:
              "Imports static rules ({ all: true } or { keys }) as IMPORTED policies, idempotently",
            contract: STATIC_RULE_CONTRACTS.import,
          },
        },
        { name: "authz.policies.static-rules.import.other" },
      ),
    ];
  }

  /** Answers one request (ADMIN first, then the method, then the body). */
  async handle(exchange: HttpExchange, method: "GET" | "POST"): Promise<void> {
    exchange.response.headers.set("cache-control", "no-store");
    const admin = currentAuthentication(exchange);
    if (!admin) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
    this.o.service.assertAdmin(admin, `http:${exchange.method}`);
    if (exchange.method !== method && !(method === "GET" && exchange.method === "HEAD")) {
      exchange.response.headers.set("allow", method);
      throw new PlatformError("METHOD_NOT_ALLOWED", `Use ${method}`);
    }
    if (method === "GET") {
      exchange.json(200, await this.o.rules.list(admin));
      return;
    }
    const body = ImportBody.safeParse(await exchange.fields(["json"]));
    if (!body.success) {
      const message = `give { all: true } or { keys: [...] } (1 to ${MAX_IMPORT_KEYS} keys of at most 300 characters)`;
      throw new PlatformError("VALIDATION_FAILED", `The request is invalid: ${message}`, {
        details: { issues: [{ path: "keys", message }] },
      });
    }
    const result = await this.o.rules.import("all" in body.data ? "all" : body.data.keys, admin);
    exchange.json(200, { ...result });
  }
}
