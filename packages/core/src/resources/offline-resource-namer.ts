import { methodResourceName } from "./method-resource-name.js";
import type { ResourceNamer } from "./resource-namer.js";
import type { ResourceName, ScannedResource } from "./scanned-resource.js";
import { urlResourceName } from "./url-resource-name.js";

/**
 * The built-in namer: writes a name for people from a URL resource's method and path
 * (`DELETE /api/orders/{id}` → "Cancel an order", `POST /api/users/{id}/password` → "Change a
 * user's password") or a METHOD resource's identifier (`OrderService.get(string)` → "Get an
 * order"), offline and deterministic. The default ResourceNamer and every batch's fallback.
 */
export class OfflineResourceNamer implements ResourceNamer {
  readonly id = "offline";

  async name(batch: readonly ScannedResource[]): Promise<readonly ResourceName[]> {
    return batch.map(offlineResourceName);
  }
}

/** The offline name and description of one resource (see OfflineResourceNamer). */
export function offlineResourceName(resource: ScannedResource): ResourceName {
  if (resource.resourceType === "METHOD") {
    const friendlyName = methodResourceName(resource.resourceIdentifier);
    return { friendlyName, description: `${friendlyName}: ${resource.resourceIdentifier}` };
  }
  const method = resource.httpMethod ?? "ANY";
  const friendlyName = urlResourceName(method, resource.resourceIdentifier);
  const how = method === "ANY" ? "any method" : method;
  return { friendlyName, description: `${friendlyName} (${how} ${resource.resourceIdentifier})` };
}
