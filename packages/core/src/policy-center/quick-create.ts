import { z } from "zod";
import { UNSAFE_TEXT } from "../kernel/unsafe-text.js";
import type { Policy, PolicyTarget } from "../authz/policy/policy.js";
import type { PolicyAdministrationService } from "../authz/policy/policy-administration-service.js";
import { POLICY_LIMITS } from "../authz/policy/policy-schema.js";
import type { Authentication } from "../identity/authentication/authentication.js";
import type { AuditSink } from "../kernel/audit-sink.js";
import { PlatformError } from "../kernel/platform-error.js";
import { type ManagedResource, resourceKeyOf } from "../resources/managed-resource.js";
import type { ManagedResourceRepository } from "../resources/managed-resource-repository.js";
import { MAX_TEMPLATE_LIST_ITEMS, grantExpression } from "./condition-templates.js";

const RESOURCE_ID = /^[A-Za-z0-9_-]{1,128}$/;
// Roles and permissions are authority names (`ADMIN`, `ROLE_ADMIN`, `order:read`): no spaces or quotes.
const AUTHORITY_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,99}$/;

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((s) => !UNSAFE_TEXT.test(s), "must not contain control or format characters");
const names = z
  .array(z.string().regex(AUTHORITY_NAME, "must be letters, digits, '_', '.', ':' or '-' (at most 100)"))
  .max(MAX_TEMPLATE_LIST_ITEMS);

/** `POST /admin/policy-center/api/quick-create`'s body. */
export const QuickCreateBody = z
  .strictObject({
    resourceId: z.string().regex(RESOURCE_ID, "must be 1 to 128 letters, digits, '-' or '_'"),
    roles: names.default([]),
    permissions: names.default([]),
    name: text(POLICY_LIMITS.nameMaxLength).optional(),
    description: text(POLICY_LIMITS.descriptionMaxLength).optional(),
  })
  .refine((b) => b.roles.length + b.permissions.length > 0, {
    path: ["roles"],
    message: "give at least one role or permission",
  });

/** A quick grant as validated. */
export type QuickCreateRequest = z.output<typeof QuickCreateBody>;

/** What a quick grant made: the policy, and the resource as it now stands (POLICY_CONNECTED). */
export interface QuickCreateResult {
  readonly policy: Policy;
  readonly resource: ManagedResource;
}

/** Options of the QuickCreateService. */
export interface QuickCreateServiceOptions {
  resources: ManagedResourceRepository;
  pap: PolicyAdministrationService;
  audit: AuditSink;
}

/** The lifecycle states in which a resource can be granted: it has been defined as a permission. */
const GRANTABLE: ReadonlySet<ManagedResource["status"]> = new Set(["PERMISSION_CREATED", "POLICY_CONNECTED"]);

/**
 * Quick mode of the Policy Center: grants roles and permissions on one managed resource as one
 * ALLOW policy (MANUAL, so approval NOT_REQUIRED) whose target is the resource (a URL's pattern and
 * method, or a method's identifier) and whose one rule holds `hasAnyRole(…)` and/or
 * `hasAnyAuthority(…)` (a caller holding any of them is allowed). Saved through the PAP, so the
 * reload, its audit and the resource reconciler (PERMISSION_CREATED → POLICY_CONNECTED) follow.
 */
export class QuickCreateService {
  constructor(private readonly o: QuickCreateServiceOptions) {}

  /**
   * Grants on the resource: NOT_FOUND for an unknown one; ILLEGAL_STATE_TRANSITION (409) unless it is
   * PERMISSION_CREATED or POLICY_CONNECTED (define it first; an excluded one is restored first).
   */
  async grant(request: QuickCreateRequest, actor: Authentication): Promise<QuickCreateResult> {
    this.o.pap.assertAdmin(actor, "quick-create");
    const resource = await this.o.resources.findById(request.resourceId);
    if (!resource) throw new PlatformError("NOT_FOUND", "No such resource");
    if (!GRANTABLE.has(resource.status)) {
      throw new PlatformError(
        "ILLEGAL_STATE_TRANSITION",
        resource.status === "EXCLUDED"
          ? "The resource is excluded: restore and define it before granting access to it"
          : "The resource is not defined as a permission yet: define it before granting access to it",
        { details: { status: resource.status } },
      );
    }
    const conditions = [
      ...(request.roles.length > 0
        ? [{ expression: grantExpression("role", [...new Set(request.roles)]) }]
        : []),
      ...(request.permissions.length > 0
        ? [{ expression: grantExpression("authority", [...new Set(request.permissions)]) }]
        : []),
    ];
    const policy = await this.o.pap.create(
      {
        name: request.name ?? `Grant: ${resource.friendlyName}`.slice(0, POLICY_LIMITS.nameMaxLength).trim(),
        description: request.description ?? defaultDescription(resource, request),
        effect: "ALLOW",
        targets: [targetOf(resource)],
        rules: [{ name: "Quick grant", conditions }],
        source: "MANUAL",
      },
      actor,
    );
    const now = (await this.o.resources.findById(resource.id)) ?? resource;
    this.o.audit.record({
      type: "policy-center.quick-create",
      outcome: "success",
      principal: actor.username,
      data: { policyId: policy.id, resourceId: resource.id, from: resource.status, to: now.status },
    });
    return { policy, resource: now };
  }
}

/** The target a resource stands for: its URL pattern and method, or its method identifier. */
export function targetOf(resource: ManagedResource): PolicyTarget {
  return {
    targetType: resource.resourceType,
    targetIdentifier: resource.resourceIdentifier,
    httpMethod: resource.resourceType === "URL" ? (resource.httpMethod ?? "ANY") : "ANY",
    targetOrder: 0,
    sourceType: "RESOURCE",
  };
}

function defaultDescription(resource: ManagedResource, request: QuickCreateRequest): string {
  const parts = [
    request.roles.length > 0 ? `roles ${request.roles.join(", ")}` : "",
    request.permissions.length > 0 ? `permissions ${request.permissions.join(", ")}` : "",
  ].filter(Boolean);
  return `Quick grant on ${resourceKeyOf(resource)}: ${parts.join("; ")}`.slice(
    0,
    POLICY_LIMITS.descriptionMaxLength,
  );
}
