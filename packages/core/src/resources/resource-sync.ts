import type { AuditSink } from "../kernel/audit-sink.js";
import type { Clock } from "../kernel/clock.js";
import type { Logger } from "../kernel/logger.js";
import { isPlatformError } from "../kernel/platform-error.js";
import {
  type ManagedResource,
  type ManagedResourceChanges,
  type NewManagedResource,
  resourceKeyOf,
} from "./managed-resource.js";
import type { ManagedResourceRepository } from "./managed-resource-repository.js";
import { storedKey } from "./managed-resource-store-rules.js";
import type { ResourceScanner, ScannedResource } from "./scanned-resource.js";

/** What one sync did, for the log and the audit trail. */
export interface ResourceSyncReport {
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
  /** Marked `missingSince` by this run. */
  readonly vanished: number;
  /** Scanners that threw (their resources were left as they were). */
  readonly failedScanners: readonly string[];
}

/** Options of the ResourceSync. */
export interface ResourceSyncOptions {
  repository: ManagedResourceRepository;
  /** The registered scanners, read at each run. */
  scanners: () => readonly ResourceScanner[];
  audit: AuditSink;
  clock: Clock;
  logger: Logger;
}

/** The scanner's descriptive fields the sync refreshes (the name fields only while nobody set them). */
const SCANNED_FIELDS = [
  "serviceOwner",
  "parameterTypes",
  "returnType",
  "apiDocsUrl",
  "sourceCodeLocation",
  "availableContextVariables",
] as const satisfies readonly (keyof ScannedResource)[];

/**
 * The start-up sync: runs every scanner and brings the store in line. A new resource enters
 * NEEDS_DEFINITION; an existing one keeps its status, its permission and an administrator's edits
 * (and a name the naming step gave it), while its other scanned fields follow the code; one no
 * scanner found any more is marked `missingSince`, never deleted (it comes back as it was when
 * found again). When a scanner throws, nothing is marked vanished in that run.
 */
export class ResourceSync {
  constructor(private readonly o: ResourceSyncOptions) {}

  /** One sync run; never throws for a scanner's or a single resource's failure. */
  async run(): Promise<ResourceSyncReport> {
    const { found, failedScanners } = await this.scanAll();
    const existing = new Map((await this.o.repository.findAll()).map((r) => [resourceKeyOf(r), r]));
    const counts = { created: 0, updated: 0, unchanged: 0, vanished: 0 };
    for (const [key, scanned] of found) {
      const outcome = await this.upsert(scanned, existing.get(key));
      counts[outcome]++;
    }
    if (failedScanners.length === 0) {
      for (const [key, resource] of existing) {
        if (found.has(key) || resource.missingSince !== undefined) continue;
        if (await this.write(resource, { missingSince: this.o.clock.now() })) counts.vanished++;
      }
    }
    const report = { ...counts, failedScanners };
    this.o.audit.record({
      type: "resource.synced",
      outcome: "success",
      principal: "system",
      data: { ...report },
    });
    this.o.logger.info("managed resources synced", { ...report, failedScanners: failedScanners.join(",") });
    return report;
  }

  private async scanAll(): Promise<{ found: Map<string, ScannedResource>; failedScanners: string[] }> {
    const found = new Map<string, ScannedResource>();
    const failedScanners: string[] = [];
    for (const scanner of this.o.scanners()) {
      let scanned: readonly ScannedResource[];
      try {
        scanned = await scanner.scan();
      } catch (error) {
        failedScanners.push(scanner.name);
        this.o.logger.error("resource scanner failed", { scanner: scanner.name, error: String(error) });
        this.o.audit.record({
          type: "resource.scan-failed",
          outcome: "failure",
          principal: "system",
          data: { scanner: scanner.name },
        });
        continue;
      }
      for (const resource of scanned) {
        const key = resourceKeyOf(storedKey(resource));
        // Two scanners naming one resource: the first registered describes it.
        if (!found.has(key)) found.set(key, resource);
      }
    }
    return { found, failedScanners };
  }

  private async upsert(
    scanned: ScannedResource,
    current: ManagedResource | undefined,
  ): Promise<"created" | "updated" | "unchanged"> {
    if (!current) {
      const fresh: NewManagedResource = {
        ...scanned,
        status: "NEEDS_DEFINITION",
        editedFields: [],
        named: false,
      };
      try {
        await this.o.repository.create(fresh);
        return "created";
      } catch (error) {
        // Another instance's sync created it first: it is there, as this one would have made it.
        if (isPlatformError(error) && error.code === "CONFLICT") return "unchanged";
        throw error;
      }
    }
    const changes = refreshed(scanned, current);
    if (Object.keys(changes).length === 0) return "unchanged";
    return (await this.write(current, changes)) ? "updated" : "unchanged";
  }

  // A lost race (an administrator's move meanwhile) skips this resource until the next sync.
  private async write(resource: ManagedResource, changes: ManagedResourceChanges): Promise<boolean> {
    try {
      await this.o.repository.update(resource.id, resource.version, changes);
      return true;
    } catch (error) {
      if (!isPlatformError(error) || error.code !== "CONFLICT") throw error;
      this.o.logger.warn("resource changed during sync; left for the next one", { resourceId: resource.id });
      return false;
    }
  }
}

/** The changes that bring `current` in line with what the scanner found (empty when it is). */
function refreshed(scanned: ScannedResource, current: ManagedResource): ManagedResourceChanges {
  const changes: Record<string, unknown> = {};
  for (const field of SCANNED_FIELDS) {
    if (scanned[field] !== current[field]) changes[field] = scanned[field] ?? null;
  }
  // The scanner's name stands only until the naming step or an administrator gave a better one.
  for (const field of ["friendlyName", "description"] as const) {
    const kept = current.named || current.editedFields.includes(field);
    if (!kept && scanned[field] !== current[field]) changes[field] = scanned[field];
  }
  if (current.missingSince !== undefined) changes.missingSince = null;
  return changes as ManagedResourceChanges;
}
