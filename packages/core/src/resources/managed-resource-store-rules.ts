import { PlatformError } from "../kernel/platform-error.js";
import type { ResourceKey } from "./managed-resource.js";
import { MANAGED_RESOURCE_MAX_PAGE } from "./managed-resource-repository.js";

/** The key as stored: a URL resource always carries a method (ANY by default), a METHOD one none. */
export function storedKey(key: ResourceKey): ResourceKey {
  return key.resourceType === "URL"
    ? { resourceType: "URL", resourceIdentifier: key.resourceIdentifier, httpMethod: key.httpMethod ?? "ANY" }
    : { resourceType: "METHOD", resourceIdentifier: key.resourceIdentifier };
}

/** List order: resourceType, then resourceIdentifier, then httpMethod (code-unit order). */
export function compareResources(a: ResourceKey, b: ResourceKey): number {
  return (
    cmp(a.resourceType, b.resourceType) ||
    cmp(a.resourceIdentifier, b.resourceIdentifier) ||
    cmp(a.httpMethod ?? "", b.httpMethod ?? "")
  );
}

const cmp = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

/** The page `list` serves: offset >= 0 (default 0), limit 0..MANAGED_RESOURCE_MAX_PAGE (default the max). */
export function checkResourcePage(page: { offset?: number; limit?: number }): {
  offset: number;
  limit: number;
} {
  const offset = page.offset ?? 0;
  const limit = page.limit ?? MANAGED_RESOURCE_MAX_PAGE;
  if (!Number.isSafeInteger(offset) || offset < 0) throw invalidPage("offset", "must be an integer >= 0");
  if (!Number.isSafeInteger(limit) || limit < 0 || limit > MANAGED_RESOURCE_MAX_PAGE) {
    throw invalidPage("limit", `must be an integer from 0 to ${MANAGED_RESOURCE_MAX_PAGE}`);
  }
  return { offset, limit };
}

function invalidPage(path: string, message: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", `The page is invalid: ${path} ${message}`, {
    details: { issues: [{ path, message }] },
  });
}
