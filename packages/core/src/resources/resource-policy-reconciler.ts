import type { AuditSink } from "../kernel/audit-sink.js";
import type { Logger } from "../kernel/logger.js";
import { isPlatformError } from "../kernel/platform-error.js";
import type { Policy } from "../authz/policy/policy.js";
import type { PolicyChange } from "../authz/policy/policy-change-listener.js";
import type { PolicyRepository } from "../authz/policy/policy-repository.js";
import type { ManagedResource } from "./managed-resource.js";
import type { ManagedResourceRepository } from "./managed-resource-repository.js";
import { RESOURCE_AUDIT_TYPES, RESOURCE_TRANSITIONS } from "./resource-lifecycle.js";
import { policiesOf, relationOf } from "./resource-references.js";

/** Options of the ResourcePolicyReconciler. */
export interface ResourcePolicyReconcilerOptions {
  repository: ManagedResourceRepository;
  policies: PolicyRepository;
  audit: AuditSink;
  logger: Logger;
}

/**
 * Keeps POLICY_CONNECTED true to the policies: the one place where policy changes move resources.
 * After every policy change (a `PolicyChangeListener`), the resources the changed policy's targets
 * reference and every connected resource are judged again against all stored policies: a
 * PERMISSION_CREATED resource an executable policy references is connected; a connected one that
 * none references any more falls back to PERMISSION_CREATED. Moves are compare-and-set writes,
 * audited with principal `system` and the policy that caused them; a lost race is retried once.
 */
export class ResourcePolicyReconciler {
  constructor(private readonly o: ResourcePolicyReconcilerOptions) {}

  /** Judges the resources a policy change may have moved. */
  async onPolicyChanged(change: PolicyChange): Promise<void> {
    const policies = await this.o.policies.findAll({});
    const changed = policies.find((p) => p.id === change.policyId);
    const candidates = (await this.o.repository.findAll()).filter(
      (r) =>
        r.status === "POLICY_CONNECTED" ||
        (r.status === "PERMISSION_CREATED" &&
          changed?.targets.some((t) => relationOf(t, r) === "references") === true),
    );
    for (const resource of candidates) await this.settle(resource, policies, change.policyId);
  }

  /** Judges every defined resource (at start-up: heals what a crash between two writes left). */
  async reconcileAll(): Promise<void> {
    const policies = await this.o.policies.findAll({});
    for (const resource of await this.o.repository.findAll()) {
      if (resource.status === "PERMISSION_CREATED" || resource.status === "POLICY_CONNECTED") {
        await this.settle(resource, policies, undefined);
      }
    }
  }

  /** Judges one resource (just defined) against the stored policies. */
  async reconcileResource(resource: ManagedResource): Promise<ManagedResource> {
    return this.settle(resource, await this.o.policies.findAll({}), undefined);
  }

  private async settle(
    resource: ManagedResource,
    policies: readonly Policy[],
    cause: string | undefined,
    retried = false,
  ): Promise<ManagedResource> {
    const connected = policiesOf(resource, policies).connected;
    const move =
      resource.status === "PERMISSION_CREATED" && connected.length > 0
        ? "connect"
        : resource.status === "POLICY_CONNECTED" && connected.length === 0
          ? "disconnect"
          : undefined;
    if (!move) return resource;
    try {
      const moved = await this.o.repository.update(resource.id, resource.version, {
        status: RESOURCE_TRANSITIONS[move].to,
      });
      this.o.audit.record({
        type: RESOURCE_AUDIT_TYPES[move],
        outcome: "success",
        principal: "system",
        data: {
          resourceId: resource.id,
          resourceIdentifier: resource.resourceIdentifier,
          from: resource.status,
          to: moved.status,
          policyIds: connected.map((c) => c.policyId),
          ...(cause === undefined ? {} : { causedBy: cause }),
        },
      });
      return moved;
    } catch (error) {
      if (!isPlatformError(error) || error.code !== "CONFLICT" || retried) {
        this.o.logger.warn("resource reconciliation failed", {
          resourceId: resource.id,
          error: String(error),
        });
        return resource;
      }
      const now = await this.o.repository.findById(resource.id);
      return now ? this.settle(now, policies, cause, true) : resource;
    }
  }
}
