import { z } from "zod";
import { currentAuthentication } from "../../identity/authentication/authentication.js";
import { type ChainRoute, resourceRoutes } from "../../identity/chain/chain-route.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { jsonAnswer, pathParam } from "../../web/contract-parts.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { RouteContract } from "../../web/route-contract.js";
import type { PolicyAdministrationService } from "../policy/policy-administration-service.js";
import { MAX_POLICY_REVISION_LIMIT } from "../policy/policy-revision-repository.js";
import { AUTHZ_ADMIN_FEATURE, MAX_POLICY_ID_LENGTH } from "./policy-admin-endpoints.js";

const POLICY_ID = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_POLICY_ID_LENGTH}}$`);
const LIMIT = /^[1-9][0-9]{0,3}$/;

/** One revision as the API answers it (the PolicyRevision record). */
const RevisionJson = z.looseObject({
  id: z.string(),
  policyId: z.string(),
  policyVersion: z.number().int(),
  action: z.enum(["CREATED", "UPDATED", "DELETED", "ACTIVATED", "DEACTIVATED", "APPROVED", "REJECTED"]),
  actor: z.string(),
  at: z.number(),
  changedFields: z.array(z.string()),
  snapshot: z.looseObject({ id: z.string(), name: z.string(), version: z.number().int() }),
  reason: z.string().optional(),
});

/** `GET /admin/api/policies/{id}/history`'s contract. */
export const POLICY_HISTORY_CONTRACT = {
  pathParams: [pathParam("policyId", "The policy's id (letters, digits, `-`, `_`)")],
  query: z.strictObject({
    limit: z
      .string()
      .optional()
      .describe(`How many revisions, 1 to ${MAX_POLICY_REVISION_LIMIT} (default 100)`),
  }),
  responses: { 200: jsonAnswer("The policy's revisions, newest first", z.array(RevisionJson)) },
  errors: ["VALIDATION_FAILED", "NOT_FOUND"],
} as const satisfies RouteContract;

/** Options of the PolicyHistoryEndpoint. */
export interface PolicyHistoryEndpointOptions {
  service: PolicyAdministrationService;
  /** Where the policy admin API lives. Default `/admin/api/policies`. */
  basePath?: string;
}

/**
 * `GET /admin/api/policies/{id}/history[?limit=n]` (ROLE_ADMIN): the policy's revisions, newest
 * first, each with who, when, what changed, the version and the policy as it then stood. A deleted
 * policy's history still answers; a policy that never existed is NOT_FOUND. The query takes `limit`
 * alone, once, 1 to 1,000; anything else is VALIDATION_FAILED. Answers carry `Cache-Control: no-store`.
 */
export class PolicyHistoryEndpoint {
  private readonly basePath: string;

  constructor(private readonly o: PolicyHistoryEndpointOptions) {
    this.basePath = (o.basePath ?? "/admin/api/policies").replace(/\/+$/, "");
  }

  /** `GET <base>/{id}/history`, and any other method 405. */
  routes(): ChainRoute[] {
    return resourceRoutes(
      {
        path: `${this.basePath}/*/history`,
        feature: AUTHZ_ADMIN_FEATURE,
        access: "admin",
        handler: (x, p) => this.handle(x, p["*"] ?? ""),
      },
      {
        GET: {
          name: "authz.policies.history",
          description: "A policy's change history, newest first (limit)",
          contract: POLICY_HISTORY_CONTRACT,
        },
      },
      { name: "authz.policies.history.other" },
    );
  }

  /** Answers one request (ADMIN first, then the method, the id and the query). */
  async handle(exchange: HttpExchange, id: string): Promise<void> {
    exchange.response.headers.set("cache-control", "no-store");
    const admin = currentAuthentication(exchange);
    if (!admin) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
    this.o.service.assertAdmin(admin, `http:${exchange.method}`);
    if (exchange.method !== "GET" && exchange.method !== "HEAD") {
      exchange.response.headers.set("allow", "GET");
      throw new PlatformError("METHOD_NOT_ALLOWED", "Use GET");
    }
    if (!POLICY_ID.test(id))
      invalid("id", `must be 1 to ${MAX_POLICY_ID_LENGTH} letters, digits, '-' or '_'`);
    const revisions = await this.o.service.history(id, admin, limitOf(exchange.query));
    exchange.json(200, revisions);
  }
}

function limitOf(query: URLSearchParams): number | undefined {
  for (const key of query.keys()) if (key !== "limit") invalid(key, "is not a parameter of this endpoint");
  const values = query.getAll("limit");
  if (values.length === 0) return undefined;
  const raw = values[0] ?? "";
  const limit = Number(raw);
  if (values.length > 1 || !LIMIT.test(raw) || limit > MAX_POLICY_REVISION_LIMIT) {
    invalid("limit", `must be given once, a whole number from 1 to ${MAX_POLICY_REVISION_LIMIT}`);
  }
  return limit;
}

function invalid(path: string, message: string): never {
  // A query key is echoed in the issue's path: cut, so a hostile name cannot swell the answer.
  const shown = path.slice(0, 64);
  throw new PlatformError("VALIDATION_FAILED", `The request is invalid: ${shown} ${message}`, {
    details: { issues: [{ path: shown, message }] },
  });
}
