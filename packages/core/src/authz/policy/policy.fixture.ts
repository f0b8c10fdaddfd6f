import {
  type Authentication,
  setCurrentAuthentication,
} from "../../identity/authentication/authentication.js";
import { user } from "../../identity/authentication/authentication.fixture.js";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import type { LogFields, Logger } from "../../kernel/logger.js";
import { errorResponse } from "../../web/error-response.js";
import { createErrorCatalog } from "../../kernel/error-catalog.js";
import { KERNEL_ERROR_CODES } from "../../kernel/kernel-error-codes.js";
import { WEB_ERROR_CODES } from "../../web/web-error-codes.js";
import { IDENTITY_ERROR_CODES } from "../../identity/identity-error-codes.js";
import { AUTHZ_ERROR_CODES } from "../authz-error-codes.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { ExpressionCompiler } from "../expression/expression-compiler.js";
import { PolicyExpressionConverter } from "../expression/policy-expression-converter.js";
import { InMemoryPolicyRepository } from "./in-memory-policy-repository.js";
import { InMemoryPolicyRevisionRepository } from "./in-memory-policy-revision-repository.js";
import { PolicyAdminEndpoints } from "../admin/policy-admin-endpoints.js";
import { serveRoutes } from "../../identity/chain/chain-routes.test-support.js";
import { PolicyAdministrationService } from "./policy-administration-service.js";
import type { PolicyChange, PolicyChangeListener } from "./policy-change-listener.js";
import type { PolicyExpressionTools } from "./policy-expression-check.js";
import type { PolicyCreateInput } from "./policy-schema.js";

/** Test fixture: an authentication of `username` holding `authorities`. */
export { user };

/** Test fixture: an administrator and a plain user. */
export const ROOT = user("u-root", "root", ["ROLE_USER", "ROLE_ADMIN"]);
export const BOB = user("u-bob", "bob", ["ROLE_USER", "ROLE_MANAGER"]);

/** Test fixture: a valid manual policy guarding `/admin/**` for admins. */
export function manual(overrides: Partial<PolicyCreateInput> = {}): PolicyCreateInput {
  return {
    name: "Admin area",
    description: "Only administrators reach the admin area",
    effect: "ALLOW",
    priority: 10,
    targets: [{ targetType: "URL", targetIdentifier: "/admin/**" }],
    rules: [{ name: "admins", conditions: [{ expression: "hasRole('ADMIN')" }] }],
    ...overrides,
  };
}

/** Test fixture: a valid AI-generated policy (PENDING once created). */
export function generated(overrides: Partial<PolicyCreateInput> = {}): PolicyCreateInput {
  return manual({
    name: "Orders by managers",
    source: "AI_GENERATED",
    confidenceScore: 0.92,
    aiModel: "model-x",
    targets: [{ targetType: "URL", targetIdentifier: "/orders/**", httpMethod: "POST" }],
    rules: [{ name: "managers", conditions: [{ expression: "hasRole('MANAGER') and isAllowed()" }] }],
    ...overrides,
  });
}

/** Test fixture: the PAP over an in-memory store with a recording audit sink, logger and listener. */
export function setup(
  o: { listeners?: PolicyChangeListener[]; tools?: Partial<PolicyExpressionTools> } = {},
) {
  const clock = new ManualClock();
  const repository = new InMemoryPolicyRepository({ clock, ids: new CryptoIdGenerator() });
  const revisions = new InMemoryPolicyRevisionRepository({ ids: new CryptoIdGenerator() });
  const audit = new InMemoryAuditSink(1_000, clock);
  const logged: { message: string; fields: LogFields | undefined }[] = [];
  const logger: Logger = {
    info() {},
    warn() {},
    error: (message, fields) => {
      logged.push({ message, fields });
    },
  };
  const changes: PolicyChange[] = [];
  const recorder: PolicyChangeListener = {
    id: "recorder",
    onPoliciesChanged: (change) => {
      changes.push(change);
    },
  };
  const listeners = o.listeners ?? [recorder];
  const service = new PolicyAdministrationService({
    repository,
    audit,
    logger,
    compiler: o.tools?.compiler ?? new ExpressionCompiler(),
    converter: o.tools?.converter ?? new PolicyExpressionConverter(),
    listeners: () => listeners,
    revisions: { store: revisions, clock },
  });
  const filter = new PolicyAdminEndpoints({ service });
  /** The audit events of a type prefix, e.g. `policy.`. */
  const audited = (prefix = "policy.") => audit.events().filter((e) => e.type.startsWith(prefix));
  return { clock, repository, revisions, audit, audited, logged, changes, service, filter };
}

/** Test fixture: an exchange; `body` is sent as JSON unless `raw` is given; `as` signs the caller in. */
export function request(init: {
  method?: string;
  url: string;
  body?: unknown;
  raw?: string;
  contentType?: string;
  as?: Authentication;
}): HttpExchange {
  const text = init.raw ?? (init.body === undefined ? "" : JSON.stringify(init.body));
  const contentType = init.contentType ?? (text === "" ? undefined : "application/json");
  const x = new HttpExchange({
    method: init.method ?? "GET",
    url: init.url,
    headers: { accept: "application/json", "content-type": contentType },
    remoteAddress: "203.0.113.7",
    readBody: async () => text,
  });
  if (init.as) setCurrentAuthentication(x, init.as);
  return x;
}

/** The codes a platform with the identity and authz plugins knows, which the fixture answers with. */
const ADMIN_API_CATALOG = createErrorCatalog(
  [KERNEL_ERROR_CODES, WEB_ERROR_CODES, IDENTITY_ERROR_CODES, AUTHZ_ERROR_CODES].map((table) => ({
    source: "fixture",
    table,
  })),
);

/**
 * Test fixture: serves the endpoints' routes as a chain would (a thrown PlatformError becomes its JSON error
 * answer) and reports the answer and how often `next` was called.
 */
export async function send(filter: Pick<PolicyAdminEndpoints, "routes">, x: HttpExchange) {
  let nextCalls = 0;
  try {
    await serveRoutes(filter.routes(), x, async () => {
      nextCalls++;
    });
  } catch (error) {
    const answer = errorResponse(error, "test", ADMIN_API_CATALOG);
    if (answer.unexpected) throw error;
    x.json(answer.status, answer.body);
  }
  return { nextCalls, status: x.response.status, body: x.response.body as Record<string, unknown>, x };
}
