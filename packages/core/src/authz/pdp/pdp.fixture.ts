import type { Authentication } from "../../identity/authentication/authentication.js";
import { user } from "../../identity/authentication/authentication.fixture.js";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { ExpressionCompiler } from "../expression/expression-compiler.js";
import { PolicyExpressionConverter } from "../expression/policy-expression-converter.js";
import { InMemoryPolicyRepository } from "../policy/in-memory-policy-repository.js";
import type { NewPolicy, Policy, PolicyEffect, PolicyHttpMethod } from "../policy/policy.js";
import { DefaultPolicyRetrievalPoint } from "../policy/policy-retrieval-point.js";
import type { CombiningAlgorithm } from "./combining-algorithm.js";
import { DynamicAuthorizationManager } from "./dynamic-authorization-manager.js";

/** Test fixture: a signed-in user with `authorities`. */
export function caller(username: string, ...authorities: string[]): Authentication {
  return user(`id-${username}`, username, authorities);
}

/** Test fixture: a manual URL policy stored as is (no PAP validation, so broken ones can be stored too). */
export function urlPolicy(
  name: string,
  effect: PolicyEffect,
  priority: number,
  pattern: string | string[],
  conditions: string[] = [],
  extra: Partial<NewPolicy> & { method?: PolicyHttpMethod } = {},
): NewPolicy {
  const { method, ...rest } = extra;
  return {
    name,
    description: "",
    effect,
    priority,
    targets: (Array.isArray(pattern) ? pattern : [pattern]).map((p, i) => ({
      targetType: "URL",
      targetIdentifier: p,
      httpMethod: method ?? "ANY",
      targetOrder: i,
      sourceType: "MANUAL",
    })),
    rules: conditions.length
      ? [{ name: "r", conditions: conditions.map((expression) => ({ expression })) }]
      : [],
    source: "MANUAL",
    approvalStatus: "NOT_REQUIRED",
    isActive: true,
    confidenceScore: null,
    aiModel: null,
    ...rest,
  };
}

/** Test fixture: a manager over an in-memory repository, with its audit sink and clock. */
export async function pdpWith(
  policies: NewPolicy[],
  options: { algorithm?: CombiningAlgorithm; noMatchGranted?: boolean; auditAdmits?: () => boolean } = {},
): Promise<{
  manager: DynamicAuthorizationManager;
  repository: InMemoryPolicyRepository;
  audit: InMemoryAuditSink;
  clock: ManualClock;
  stored: Policy[];
}> {
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 12));
  const repository = new InMemoryPolicyRepository({ clock, ids: new CryptoIdGenerator() });
  const stored: Policy[] = [];
  for (const p of policies) stored.push(await repository.create(p));
  const audit = new InMemoryAuditSink(1_000, clock);
  const manager = new DynamicAuthorizationManager({
    prp: new DefaultPolicyRetrievalPoint({ repository }),
    compiler: new ExpressionCompiler(),
    converter: new PolicyExpressionConverter(),
    audit,
    clock,
    algorithm: options.algorithm ?? "FIRST_APPLICABLE",
    noMatchGranted: options.noMatchGranted ?? true,
    timeZone: "UTC",
    ...(options.auditAdmits ? { auditAdmits: options.auditAdmits } : {}),
  });
  await manager.initialize();
  return { manager, repository, audit, clock, stored };
}

/** Test fixture: an exchange for `method path`. */
export function request(method: string, path: string, remoteAddress = "203.0.113.9"): HttpExchange {
  return new HttpExchange({ method, url: path, headers: {}, remoteAddress });
}
