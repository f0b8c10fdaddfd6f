import type { InjectionToken } from "tsyringe";
import type {
  ManagedResource,
  ManagedResourceChanges,
  NewManagedResource,
  ResourceKey,
  ResourceStatus,
} from "./managed-resource.js";
import type { ResourceType } from "./scanned-resource.js";

/** What `ManagedResourceRepository.list` narrows by; absent fields do not filter. */
export interface ManagedResourceFilter {
  readonly status?: ResourceStatus;
  readonly resourceType?: ResourceType;
  /** Exact service owner (the simple class or module name). */
  readonly serviceOwner?: string;
  /** Case-insensitive plain substring (never a pattern) of the identifier, the friendly name or the description. */
  readonly text?: string;
}

/** One page of `list`. */
export interface ManagedResourcePage {
  /** The page, by resourceType, then resourceIdentifier, then httpMethod (code-unit order). */
  readonly items: ManagedResource[];
  /** How many resources match the filter in all. */
  readonly total: number;
}

/** Largest page `list` returns. */
export const MANAGED_RESOURCE_MAX_PAGE = 200;

/**
 * Where managed resources live. Unique by resourceType + resourceIdentifier + httpMethod (a URL
 * resource always carries one, `ANY` when the scanner gave none; a METHOD resource never does).
 * The store assigns id, version and timestamps and returns copies; it does not judge transitions,
 * which is the lifecycle service's job. Errors: CONFLICT with `details.reason` `duplicate` (create
 * of a taken key) or `version` (stale compare-and-set), NOT_FOUND on an update of an unknown id,
 * VALIDATION_FAILED for a page outside 0..MANAGED_RESOURCE_MAX_PAGE or a negative offset.
 */
export interface ManagedResourceRepository {
  /** Stores a new resource with a fresh id, version 1 and createdAt = updatedAt = now. */
  create(resource: NewManagedResource): Promise<ManagedResource>;
  findById(id: string): Promise<ManagedResource | undefined>;
  findByKey(key: ResourceKey): Promise<ManagedResource | undefined>;
  /** Every resource, in list order (the sync and the policy reconciliation read them all). */
  findAll(): Promise<ManagedResource[]>;
  /** The matching resources from `offset`, at most `limit` (default and maximum MANAGED_RESOURCE_MAX_PAGE). */
  list(
    filter: ManagedResourceFilter,
    page?: { offset?: number; limit?: number },
  ): Promise<ManagedResourcePage>;
  /**
   * Compare-and-set: applies `changes` only if the stored version equals `expectedVersion`, bumps
   * the version and sets updatedAt (a `null` removes the field). CONFLICT (`version`) when stale.
   */
  update(id: string, expectedVersion: number, changes: ManagedResourceChanges): Promise<ManagedResource>;
}

/** DI token of the ManagedResourceRepository port. */
export const ManagedResourceRepository: InjectionToken<ManagedResourceRepository> = Symbol.for(
  "platform.ManagedResourceRepository",
);
