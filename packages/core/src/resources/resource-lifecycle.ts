import { PlatformError } from "../kernel/platform-error.js";
import type { ManagedResource, ResourceStatus } from "./managed-resource.js";

/** The administrator's lifecycle actions (the policy-driven moves are `connect` and `disconnect`). */
export type ResourceAction = "define" | "exclude" | "restore";

/** Every ResourceAction, for routes and the CLI. */
export const RESOURCE_ACTIONS = ["define", "exclude", "restore"] as const satisfies readonly ResourceAction[];

/**
 * The lifecycle table (spec: ManagedResource status), one row per move; nothing else moves a
 * resource. `connect` and `disconnect` follow the policies (resource-policy-reconciler.ts): the
 * first executable policy that references a PERMISSION_CREATED resource connects it; when the last
 * one goes, it falls back to PERMISSION_CREATED (docs/decisions/authorization.md#resource-last-policy).
 */
export const RESOURCE_TRANSITIONS = {
  define: { from: "NEEDS_DEFINITION", to: "PERMISSION_CREATED" },
  exclude: { from: "NEEDS_DEFINITION", to: "EXCLUDED" },
  restore: { from: "EXCLUDED", to: "NEEDS_DEFINITION" },
  connect: { from: "PERMISSION_CREATED", to: "POLICY_CONNECTED" },
  disconnect: { from: "POLICY_CONNECTED", to: "PERMISSION_CREATED" },
} as const satisfies Record<string, { from: ResourceStatus; to: ResourceStatus }>;

/** The audit event type of each move. */
export const RESOURCE_AUDIT_TYPES = {
  define: "resource.defined",
  exclude: "resource.excluded",
  restore: "resource.restored",
  connect: "resource.connected",
  disconnect: "resource.disconnected",
} as const;

/** Throws ILLEGAL_STATE_TRANSITION (409) unless `action` may start from the resource's status. */
export function assertTransition(resource: ManagedResource, action: keyof typeof RESOURCE_TRANSITIONS): void {
  const { from } = RESOURCE_TRANSITIONS[action];
  if (resource.status === from) return;
  throw new PlatformError(
    "ILLEGAL_STATE_TRANSITION",
    `Cannot ${action} a resource whose status is ${resource.status} (only from ${from})`,
    { details: { status: resource.status, action, allowedFrom: from } },
  );
}
