import { z } from "zod";
import { currentAuthentication } from "../../identity/authentication/authentication.js";
import { type ChainRoute, resourceRoutes } from "../../identity/chain/chain-route.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { jsonAnswer } from "../../web/contract-parts.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { RouteContract } from "../../web/route-contract.js";
import type { ExpressionCompiler } from "../expression/expression-compiler.js";
import type { PolicyExpressionConverter } from "../expression/policy-expression-converter.js";
import { type NewPolicy, TARGET_TYPES } from "../policy/policy.js";
import type { PolicyAdministrationService } from "../policy/policy-administration-service.js";
import { convertBusinessRule } from "../policy/business-rule-converter.js";
import { BusinessRuleSchema } from "../policy/business-rule-schema.js";
import { AUTHZ_ADMIN_FEATURE } from "./policy-admin-endpoints.js";

/** The answer: the policy (as it would be stored, or as stored), its clauses and converted expressions. */
const BusinessRuleAnswer = z.looseObject({
  mode: z.enum(["preview", "save"]),
  policy: z.looseObject({
    name: z.string(),
    effect: z.string(),
    source: z.string(),
    approvalStatus: z.string(),
  }),
  clauses: z.array(z.looseObject({ field: z.string(), expression: z.string() })),
  expressions: z.record(z.string(), z.string()),
});

/** `POST /admin/api/policies/build-from-business-rule`'s contract. */
export const BUSINESS_RULE_CONTRACT = {
  body: { schema: BusinessRuleSchema, media: ["json"] },
  responses: {
    200: jsonAnswer("mode preview: the policy a save would store, nothing stored", BusinessRuleAnswer),
    201: {
      ...jsonAnswer("mode save: the stored policy", BusinessRuleAnswer),
      headers: { location: "Its URL" },
    },
  },
  errors: ["VALIDATION_FAILED", "POLICY_EXPRESSION_INVALID", "CONFLICT"],
} as const satisfies RouteContract;

/** Options of the BusinessRuleEndpoint. */
export interface BusinessRuleEndpointOptions {
  service: PolicyAdministrationService;
  compiler: Pick<ExpressionCompiler, "validate">;
  converter: Pick<PolicyExpressionConverter, "convert">;
  /** The zone policy times are evaluated in (`platform.policy.time-zone`, resolved). */
  timeZone: string;
  /** Default `/admin/api/policies/build-from-business-rule`. */
  path?: string;
  /** Where a saved policy lives (its Location). Default `/admin/api/policies`. */
  policiesPath?: string;
}

/**
 * `POST /admin/api/policies/build-from-business-rule` (ROLE_ADMIN, JSON): converts a business rule
 * (convertBusinessRule) into a MANUAL policy and checks it as the PAP does; `mode: "preview"`
 * answers 200 with what would be stored, `mode: "save"` stores it through the PAP (NOT_REQUIRED,
 * audited `policy.created`, reload) and answers 201 + Location. Either way the answer carries the
 * clauses and the expression each target type converts to. CSRF is the chain's.
 */
export class BusinessRuleEndpoint {
  private readonly path: string;
  private readonly policiesPath: string;

  constructor(private readonly o: BusinessRuleEndpointOptions) {
    this.path = o.path ?? "/admin/api/policies/build-from-business-rule";
    this.policiesPath = (o.policiesPath ?? "/admin/api/policies").replace(/\/+$/, "");
  }

  /** `POST <path>`, and any other method 405. */
  routes(): ChainRoute[] {
    return resourceRoutes(
      {
        path: this.path,
        feature: AUTHZ_ADMIN_FEATURE,
        access: "admin",
        handler: (exchange) => this.handle(exchange),
      },
      {
        POST: {
          name: "authz.policies.build-from-business-rule",
          description: "Converts a business rule into a MANUAL policy: preview, or save through the PAP",
          contract: BUSINESS_RULE_CONTRACT,
        },
      },
      { name: "authz.policies.build-from-business-rule.other" },
    );
  }

  /** Answers one request (ADMIN first, then the method, then the body). */
  async handle(exchange: HttpExchange): Promise<void> {
    exchange.response.headers.set("cache-control", "no-store");
    const admin = currentAuthentication(exchange);
    if (!admin) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
    this.o.service.assertAdmin(admin, `http:${exchange.method}`);
    if (exchange.method !== "POST") {
      exchange.response.headers.set("allow", "POST");
      throw new PlatformError("METHOD_NOT_ALLOWED", "Use POST");
    }
    const converted = convertBusinessRule(await exchange.fields(["json"]), this.o);
    const answer = { mode: converted.mode, clauses: converted.clauses };
    if (converted.mode === "preview") {
      const policy = await this.o.service.preview(converted.policy, admin);
      exchange.json(200, { ...answer, policy, expressions: this.expressions(policy) });
      return;
    }
    const policy = await this.o.service.create(converted.policy, admin);
    exchange.response.headers.set("location", `${this.policiesPath}/${encodeURIComponent(policy.id)}`);
    exchange.json(201, { ...answer, policy, expressions: this.expressions(policy) });
  }

  // What the decision point will evaluate, per target type the policy has (effect applied by the PDP).
  private expressions(policy: NewPolicy): Record<string, string> {
    const out: Record<string, string> = {};
    for (const type of TARGET_TYPES) {
      if (policy.targets.some((t) => t.targetType === type))
        out[type] = this.o.converter.convert(policy, type);
    }
    return out;
  }
}
