import { ManualClock } from "../kernel/clock.js";
import { CryptoIdGenerator } from "../kernel/id-generator.js";
import { InMemoryAuditSink } from "../kernel/in-memory-audit-sink.js";
import type { LogFields, Logger } from "../kernel/logger.js";
import { ResourceAdminEndpoints } from "./resource-admin-endpoints.js";
import { ExpressionCompiler } from "../authz/expression/expression-compiler.js";
import { PolicyExpressionConverter } from "../authz/expression/policy-expression-converter.js";
import { InMemoryPolicyRepository } from "../authz/policy/in-memory-policy-repository.js";
import { PolicyAdministrationService } from "../authz/policy/policy-administration-service.js";
import type { PolicyCreateInput } from "../authz/policy/policy-schema.js";
import { InMemoryManagedResourceRepository } from "./in-memory-managed-resource-repository.js";
import type { ManagedResource, NewManagedResource } from "./managed-resource.js";
import { ManagedResourceService } from "./managed-resource-service.js";
import { ResourcePolicyReconciler } from "./resource-policy-reconciler.js";

/** Test fixture: a logger that keeps what it is told. */
export function recordingLogger(): Logger & {
  lines: { level: string; message: string; fields?: LogFields }[];
} {
  const lines: { level: string; message: string; fields?: LogFields }[] = [];
  const at = (level: string) => (message: string, fields?: LogFields) => {
    lines.push({ level, message, ...(fields ? { fields } : {}) });
  };
  return { lines, info: at("info"), warn: at("warn"), error: at("error") };
}

/** Test fixture: a scanned URL resource as a new store record. */
export function urlResource(
  path: string,
  httpMethod: NonNullable<NewManagedResource["httpMethod"]> = "GET",
  extra: Partial<NewManagedResource> = {},
): NewManagedResource {
  return {
    resourceIdentifier: path,
    resourceType: "URL",
    httpMethod,
    friendlyName: "handler",
    description: `URL: [${httpMethod}] ${path}`,
    serviceOwner: "orders",
    status: "NEEDS_DEFINITION",
    editedFields: [],
    named: false,
    ...extra,
  };
}

/** Test fixture: a manual ALLOW policy with one URL target (or the targets given). */
export function targeting(
  identifier: string,
  httpMethod: "GET" | "HEAD" | "POST" | "DELETE" | "ANY" = "GET",
  extra: Partial<PolicyCreateInput> = {},
): PolicyCreateInput {
  return {
    name: `Guard ${httpMethod} ${identifier}`,
    description: "test",
    effect: "ALLOW",
    priority: 10,
    targets: [{ targetType: "URL", targetIdentifier: identifier, httpMethod }],
    rules: [{ name: "admins", conditions: [{ expression: "hasRole('ADMIN')" }] }],
    ...extra,
  };
}

/**
 * Test fixture: the PAP and the resource service over in-memory stores, wired as resourcesPlugin
 * wires them (the reconciler is a policy change listener), with the admin endpoints.
 */
export function resourcesSetup() {
  const clock = new ManualClock(1_000_000);
  const ids = new CryptoIdGenerator();
  const audit = new InMemoryAuditSink(1_000, clock);
  const logger = recordingLogger();
  const policies = new InMemoryPolicyRepository({ clock, ids });
  const repository = new InMemoryManagedResourceRepository({ clock, ids });
  const reconciler = new ResourcePolicyReconciler({ repository, policies, audit, logger });
  const pap = new PolicyAdministrationService({
    repository: policies,
    audit,
    logger,
    compiler: new ExpressionCompiler(),
    converter: new PolicyExpressionConverter(),
    listeners: () => [{ id: "resources-reconcile", onPoliciesChanged: (c) => reconciler.onPolicyChanged(c) }],
  });
  const service = new ManagedResourceService({ repository, policies, reconciler, audit, clock, ids });
  const endpoints = new ResourceAdminEndpoints({ service });
  const seed = (r: NewManagedResource): Promise<ManagedResource> => repository.create(r);
  const status = async (id: string) => (await repository.findById(id))?.status;
  const audited = (prefix = "resource.") => audit.events().filter((e) => e.type.startsWith(prefix));
  return {
    clock,
    audit,
    audited,
    logger,
    policies,
    repository,
    reconciler,
    pap,
    service,
    endpoints,
    seed,
    status,
  };
}
