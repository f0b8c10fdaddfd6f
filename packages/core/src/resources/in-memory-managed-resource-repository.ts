import type { Clock } from "../kernel/clock.js";
import type { IdGenerator } from "../kernel/id-generator.js";
import { PlatformError } from "../kernel/platform-error.js";
import {
  type ManagedResource,
  type ManagedResourceChanges,
  type NewManagedResource,
  type ResourceKey,
  resourceKeyOf,
} from "./managed-resource.js";
import {
  type ManagedResourceFilter,
  type ManagedResourcePage,
  type ManagedResourceRepository,
} from "./managed-resource-repository.js";
import { checkResourcePage, compareResources, storedKey } from "./managed-resource-store-rules.js";

/** Options of the InMemoryManagedResourceRepository. */
export interface InMemoryManagedResourceRepositoryOptions {
  clock: Clock;
  ids: IdGenerator;
}

/**
 * The reference ManagedResourceRepository, used by tests and the embedded default. No `await` sits
 * between a check and its write, so the key's uniqueness and compare-and-set are atomic on the event
 * loop; records go in and out as structured clones.
 */
export class InMemoryManagedResourceRepository implements ManagedResourceRepository {
  private readonly byId = new Map<string, ManagedResource>();
  private readonly idByKey = new Map<string, string>();

  constructor(private readonly o: InMemoryManagedResourceRepositoryOptions) {}

  async create(resource: NewManagedResource): Promise<ManagedResource> {
    const key = resourceKeyOf(storedKey(resource));
    if (this.idByKey.has(key)) throw conflict("duplicate", "A resource with this identifier exists");
    const now = this.o.clock.now();
    const stored: ManagedResource = {
      ...structuredClone(resource),
      ...storedKey(resource),
      id: this.o.ids.id(),
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    this.byId.set(stored.id, stored);
    this.idByKey.set(key, stored.id);
    return structuredClone(stored);
  }

  async findById(id: string): Promise<ManagedResource | undefined> {
    const found = this.byId.get(id);
    return found && structuredClone(found);
  }

  async findByKey(key: ResourceKey): Promise<ManagedResource | undefined> {
    const id = this.idByKey.get(resourceKeyOf(storedKey(key)));
    return id === undefined ? undefined : this.findById(id);
  }

  async findAll(): Promise<ManagedResource[]> {
    return [...this.byId.values()].sort(compareResources).map((r) => structuredClone(r));
  }

  async list(
    filter: ManagedResourceFilter,
    page: { offset?: number; limit?: number } = {},
  ): Promise<ManagedResourcePage> {
    const { offset, limit } = checkResourcePage(page);
    const text = filter.text?.toLowerCase();
    const matching = [...this.byId.values()]
      .filter(
        (r) =>
          (filter.status === undefined || r.status === filter.status) &&
          (filter.resourceType === undefined || r.resourceType === filter.resourceType) &&
          (filter.serviceOwner === undefined || r.serviceOwner === filter.serviceOwner) &&
          (!text ||
            [r.resourceIdentifier, r.friendlyName, r.description].some((f) =>
              f.toLowerCase().includes(text),
            )),
      )
      .sort(compareResources);
    return {
      items: matching.slice(offset, offset + limit).map((r) => structuredClone(r)),
      total: matching.length,
    };
  }

  async update(
    id: string,
    expectedVersion: number,
    changes: ManagedResourceChanges,
  ): Promise<ManagedResource> {
    const current = this.byId.get(id);
    if (!current) throw new PlatformError("NOT_FOUND", "No such resource");
    if (current.version !== expectedVersion) throw conflict("version", "The resource changed meanwhile");
    const next: Record<string, unknown> = { ...current };
    for (const [field, value] of Object.entries(structuredClone(changes))) {
      if (field === "resourceType" || field === "resourceIdentifier" || field === "httpMethod") continue;
      if (field === "id" || field === "createdAt" || field === "version" || value === undefined) continue;
      if (value === null) delete next[field];
      else next[field] = value;
    }
    const stored = {
      ...next,
      updatedAt: this.o.clock.now(),
      version: current.version + 1,
    } as ManagedResource;
    this.byId.set(id, stored);
    return structuredClone(stored);
  }
}

/** The store's CONFLICT: `duplicate` key on create, stale `version` on update. */
function conflict(reason: "duplicate" | "version", message: string): PlatformError {
  return new PlatformError("CONFLICT", message, { details: { reason } });
}
