import { PlatformError } from "../../kernel/platform-error.js";
import {
  EVIDENCE_RECENT_MAX_LIMIT,
  type EvidencePackage,
  type SealedEvidenceStore,
} from "./sealed-evidence-store.js";

/**
 * The embedded SealedEvidenceStore: the most recent `capacity` packages, the oldest dropped (and
 * counted) first. Packages are deep-copied in and out, so nobody changes what is kept. Nothing is
 * sealed yet: the sealing rules come with the inspector.
 */
export class InMemorySealedEvidenceStore implements SealedEvidenceStore {
  private readonly byId = new Map<string, EvidencePackage>();
  private droppedCount = 0;

  constructor(private readonly capacity = 1000) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError("capacity must be a positive integer");
  }

  async put(pkg: EvidencePackage): Promise<void> {
    if (this.byId.has(pkg.id)) throw new PlatformError("CONFLICT", "An evidence package with this id exists");
    this.byId.set(pkg.id, structuredClone(pkg));
    while (this.byId.size > this.capacity) {
      this.byId.delete(this.byId.keys().next().value!);
      this.droppedCount++;
    }
  }

  async get(id: string): Promise<EvidencePackage | undefined> {
    const pkg = this.byId.get(id);
    return pkg === undefined ? undefined : structuredClone(pkg);
  }

  async recent(limit: number): Promise<EvidencePackage[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > EVIDENCE_RECENT_MAX_LIMIT)
      throw new PlatformError(
        "VALIDATION_FAILED",
        `limit must be an integer from 1 to ${EVIDENCE_RECENT_MAX_LIMIT}`,
        {
          details: { fields: ["limit"] },
        },
      );
    return [...this.byId.values()]
      .slice(-limit)
      .reverse()
      .map((p) => structuredClone(p));
  }

  /** Packages dropped because the store was full. */
  get dropped(): number {
    return this.droppedCount;
  }
}
