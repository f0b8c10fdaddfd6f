import type { Logger } from "../kernel/logger.js";
import { isPlatformError } from "../kernel/platform-error.js";
import type { ManagedResource, ManagedResourceChanges } from "./managed-resource.js";
import type { ManagedResourceRepository } from "./managed-resource-repository.js";
import type { ResourceName, ResourceNaming } from "./scanned-resource.js";

/** Options of nameResources. */
export interface ResourceNamingRunOptions {
  repository: ManagedResourceRepository;
  naming: ResourceNaming;
  logger: Logger;
}

/** True for a resource the naming step should still name: never named, present, a name field not set by hand. */
export function needsName(resource: ManagedResource): boolean {
  return (
    !resource.named &&
    resource.missingSince === undefined &&
    !(resource.editedFields.includes("friendlyName") && resource.editedFields.includes("description"))
  );
}

/**
 * Names the resources that still need it through `ResourceNaming` (which batches, retries and falls
 * back: it never throws) and writes each proposal into the fields no administrator set, marking the
 * resource `named` so it is not asked again. Runs after start-up, in the background; an
 * administrator's edit that lands meanwhile wins (the write is compare-and-set, re-read once).
 * Returns how many resources took a name.
 */
export async function nameResources(o: ResourceNamingRunOptions): Promise<number> {
  const pending = (await o.repository.findAll()).filter(needsName);
  if (pending.length === 0) return 0;
  let names: readonly ResourceName[];
  try {
    names = await o.naming.nameAll(pending);
  } catch (error) {
    o.logger.warn("resource naming failed; the scanners' names stay", { error: String(error) });
    return 0;
  }
  let named = 0;
  for (const [i, resource] of pending.entries()) {
    const name = names[i];
    if (name && (await writeName(o, resource, name))) named++;
  }
  return named;
}

async function writeName(
  o: ResourceNamingRunOptions,
  resource: ManagedResource,
  name: ResourceName,
  retried = false,
): Promise<boolean> {
  if (!needsName(resource) || !acceptable(name)) return false;
  const changes: { -readonly [K in keyof ManagedResourceChanges]: ManagedResourceChanges[K] } = {
    named: true,
  };
  if (!resource.editedFields.includes("friendlyName")) changes.friendlyName = name.friendlyName;
  if (!resource.editedFields.includes("description")) changes.description = name.description;
  try {
    await o.repository.update(resource.id, resource.version, changes);
    return true;
  } catch (error) {
    if (!isPlatformError(error) || error.code !== "CONFLICT" || retried) return false;
    const now = await o.repository.findById(resource.id);
    return now ? writeName(o, now, name, true) : false;
  }
}

/** Longest proposed friendly name and description kept; a longer or empty proposal is dropped. */
export const MAX_PROPOSED_NAME = 200;
export const MAX_PROPOSED_DESCRIPTION = 2_000;

// A namer is outside code (often a model): its answer is checked like input.
function acceptable(name: ResourceName): boolean {
  const ok = (v: unknown, max: number) => typeof v === "string" && v.trim() !== "" && v.length <= max;
  return ok(name.friendlyName, MAX_PROPOSED_NAME) && ok(name.description, MAX_PROPOSED_DESCRIPTION);
}
