import type { ResourceHttpMethod, ResourceType, ScannedResource } from "./scanned-resource.js";

/** Where a managed resource stands in its lifecycle (docs/authorization.md#managed-resources). */
export type ResourceStatus = "NEEDS_DEFINITION" | "PERMISSION_CREATED" | "POLICY_CONNECTED" | "EXCLUDED";

/** Every ResourceStatus, for schemas and query filters. */
export const RESOURCE_STATUSES = [
  "NEEDS_DEFINITION",
  "PERMISSION_CREATED",
  "POLICY_CONNECTED",
  "EXCLUDED",
] as const satisfies readonly ResourceStatus[];

/** Every ResourceType, for schemas and query filters. */
export const RESOURCE_TYPES = ["URL", "METHOD"] as const satisfies readonly ResourceType[];

/** The fields an administrator may set on a resource; the sync and the naming step never overwrite them once set. */
export type EditableResourceField = "friendlyName" | "description";

/**
 * The permission a resource was defined as: created and linked in the same write as the move to
 * PERMISSION_CREATED, one to one, and kept (with its id) while the resource lives.
 */
export interface Permission {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly createdAt: number;
  /** The administrator who defined it. */
  readonly createdBy: string;
}

/**
 * A resource the platform discovered (a URL route or a `@Protectable` method) and tracks until a
 * policy protects it: the scanner's fields, the lifecycle status, the linked permission.
 */
export interface ManagedResource extends ScannedResource {
  readonly id: string;
  readonly status: ResourceStatus;
  /** Set from the move to PERMISSION_CREATED on. */
  readonly permission?: Permission;
  /** Fields an administrator set (define with a name or description): sync and naming leave them. */
  readonly editedFields: readonly EditableResourceField[];
  /** True once the naming step proposed this resource's name (it is not asked again). */
  readonly named: boolean;
  /** When the last scan stopped finding it (epoch ms); absent while scanners find it. */
  readonly missingSince?: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Compare-and-set version: 1 on create, +1 on every update. */
  readonly version: number;
}

/** A resource as handed to the store: everything but what the store assigns. */
export type NewManagedResource = Omit<ManagedResource, "id" | "createdAt" | "updatedAt" | "version">;

/**
 * What an update may change; `null` removes an optional field (`missingSince`, a scanned field the code dropped). The identity of a
 * resource (type, identifier, method) never changes: a moved route is a new resource.
 */
export type ManagedResourceChanges = {
  readonly [K in Exclude<keyof NewManagedResource, "resourceType" | "resourceIdentifier" | "httpMethod">]?:
    | NewManagedResource[K]
    | (undefined extends NewManagedResource[K] ? null : never);
};

/** The identity of a resource: type, identifier and (URL only) HTTP method. */
export interface ResourceKey {
  readonly resourceType: ResourceType;
  readonly resourceIdentifier: string;
  readonly httpMethod?: ResourceHttpMethod;
}

/** One string for a resource's identity (`URL GET /api/orders/{id}`, `METHOD OrderService.get(string)`). */
export function resourceKeyOf(key: ResourceKey): string {
  return key.resourceType === "URL"
    ? `URL ${key.httpMethod ?? "ANY"} ${key.resourceIdentifier}`
    : `METHOD ${key.resourceIdentifier}`;
}
