import type { Authentication } from "../identity/authentication/authentication.js";
import type { AuditSink } from "../kernel/audit-sink.js";
import type { Clock } from "../kernel/clock.js";
import type { IdGenerator } from "../kernel/id-generator.js";
import { isPlatformError, PlatformError } from "../kernel/platform-error.js";
import type { PolicyRepository } from "../authz/policy/policy-repository.js";
import type { ManagedResource, ManagedResourceChanges, EditableResourceField } from "./managed-resource.js";
import type {
  ManagedResourceFilter,
  ManagedResourcePage,
  ManagedResourceRepository,
} from "./managed-resource-repository.js";
import { assertTransition, RESOURCE_AUDIT_TYPES, RESOURCE_TRANSITIONS } from "./resource-lifecycle.js";
import { policiesOf, type ResourcePolicies } from "./resource-references.js";
import type { ResourcePolicyReconciler } from "./resource-policy-reconciler.js";

/** What an administrator may give when defining a resource; absent fields take the resource's (proposed) ones. */
export interface ResourceDefinition {
  /** The name entered; default the proposed friendlyName (the AI's or the scanner's). Also the permission's name. */
  readonly friendlyName?: string;
  readonly description?: string;
  /** The version the administrator saw: a define against a newer one is CONFLICT. */
  readonly version?: number;
}

/** A resource with the policies that connect it and those that bear on it otherwise. */
export interface ResourceDetail extends ResourcePolicies {
  readonly resource: ManagedResource;
}

/** Options of the ManagedResourceService. */
export interface ManagedResourceServiceOptions {
  repository: ManagedResourceRepository;
  policies: PolicyRepository;
  reconciler: ResourcePolicyReconciler;
  audit: AuditSink;
  clock: Clock;
  ids: IdGenerator;
  /** The authority an actor needs. Default ROLE_ADMIN. */
  adminAuthority?: string;
}

/**
 * The administrators' side of the managed-resource lifecycle: list, read (with connected policies
 * and impact), define as a permission, exclude, restore. Each move follows the lifecycle table
 * (ILLEGAL_STATE_TRANSITION otherwise, nothing changed), is one compare-and-set write (of two
 * administrators acting at once one wins, the other gets CONFLICT), and is audited.
 */
export class ManagedResourceService {
  private readonly adminAuthority: string;

  constructor(private readonly o: ManagedResourceServiceOptions) {
    this.adminAuthority = o.adminAuthority ?? "ROLE_ADMIN";
  }

  /** Throws ACCESS_DENIED (audited as `resource.access-denied`) unless `actor` holds the admin authority. */
  assertAdmin(actor: Authentication, action: string, resourceId?: string): void {
    if (actor.authorities.includes(this.adminAuthority)) return;
    this.o.audit.record({
      type: "resource.access-denied",
      outcome: "denied",
      principal: actor.username,
      data: { action, ...(resourceId === undefined ? {} : { resourceId }) },
    });
    throw new PlatformError("ACCESS_DENIED", "Only administrators may manage resources");
  }

  /** One page of the resources matching `filter`. */
  async list(
    filter: ManagedResourceFilter,
    page: { offset?: number; limit?: number },
    actor: Authentication,
  ): Promise<ManagedResourcePage> {
    this.assertAdmin(actor, "list");
    return this.o.repository.list(filter, page);
  }

  /** One resource with its connected policies and impact view; NOT_FOUND when unknown. */
  async get(id: string, actor: Authentication): Promise<ResourceDetail> {
    this.assertAdmin(actor, "get", id);
    const resource = await this.find(id);
    return { resource, ...policiesOf(resource, await this.o.policies.findAll({})) };
  }

  /**
   * NEEDS_DEFINITION → PERMISSION_CREATED: creates the permission (named after the friendly name
   * entered or proposed) and links it in the same write; then, when an executable policy already
   * references the resource, connects it at once.
   */
  async define(id: string, definition: ResourceDefinition, actor: Authentication): Promise<ResourceDetail> {
    this.assertAdmin(actor, "define", id);
    const current = await this.find(id);
    assertTransition(current, "define");
    const friendlyName = definition.friendlyName ?? current.friendlyName;
    const description = definition.description ?? current.description;
    const edited = new Set<EditableResourceField>(current.editedFields);
    if (definition.friendlyName !== undefined) edited.add("friendlyName");
    if (definition.description !== undefined) edited.add("description");
    const permission = {
      id: this.o.ids.id(),
      name: friendlyName,
      description,
      createdAt: this.o.clock.now(),
      createdBy: actor.username,
    };
    const changes: ManagedResourceChanges = {
      status: RESOURCE_TRANSITIONS.define.to,
      permission,
      friendlyName,
      description,
      editedFields: [...edited].sort(),
    };
    const defined = await this.move(current, definition.version ?? current.version, "define", changes, actor);
    await this.o.reconciler.reconcileResource(defined);
    return this.get(id, actor);
  }

  /** NEEDS_DEFINITION → EXCLUDED: out of authorization management until restored. */
  async exclude(id: string, actor: Authentication, version?: number): Promise<ResourceDetail> {
    return this.simpleMove(id, "exclude", actor, version);
  }

  /** EXCLUDED → NEEDS_DEFINITION: back in the lifecycle. */
  async restore(id: string, actor: Authentication, version?: number): Promise<ResourceDetail> {
    return this.simpleMove(id, "restore", actor, version);
  }

  private async simpleMove(
    id: string,
    action: "exclude" | "restore",
    actor: Authentication,
    version: number | undefined,
  ): Promise<ResourceDetail> {
    this.assertAdmin(actor, action, id);
    const current = await this.find(id);
    assertTransition(current, action);
    await this.move(
      current,
      version ?? current.version,
      action,
      { status: RESOURCE_TRANSITIONS[action].to },
      actor,
    );
    return this.get(id, actor);
  }

  // One compare-and-set write, audited. A lost race is CONFLICT whatever the winner did.
  private async move(
    current: ManagedResource,
    expectedVersion: number,
    action: "define" | "exclude" | "restore",
    changes: ManagedResourceChanges,
    actor: Authentication,
  ): Promise<ManagedResource> {
    let moved: ManagedResource;
    try {
      moved = await this.o.repository.update(current.id, expectedVersion, changes);
    } catch (error) {
      if (isPlatformError(error) && error.code === "CONFLICT") {
        throw new PlatformError(
          "CONFLICT",
          "Another change to this resource came first; reload it and retry",
          {
            details: { reason: "version", expectedVersion },
            cause: error,
          },
        );
      }
      throw error;
    }
    this.o.audit.record({
      type: RESOURCE_AUDIT_TYPES[action],
      outcome: "success",
      principal: actor.username,
      data: {
        resourceId: moved.id,
        resourceIdentifier: moved.resourceIdentifier,
        from: current.status,
        to: moved.status,
        ...(moved.permission && action === "define" ? { permissionId: moved.permission.id } : {}),
      },
    });
    return moved;
  }

  private async find(id: string): Promise<ManagedResource> {
    const found = await this.o.repository.findById(id);
    if (!found) throw new PlatformError("NOT_FOUND", "No such resource");
    return found;
  }
}
