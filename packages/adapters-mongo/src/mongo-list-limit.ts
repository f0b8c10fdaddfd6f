import { PlatformError } from "@keyward/core/errors";

/**
 * VALIDATION_FAILED unless `limit` is an integer from 1 to `max`: what the core's release stores
 * answer (its `checkListLimit`, kept out of the adapter kit by the surface cap).
 */
export function checkMongoListLimit(limit: number, max: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > max)
    throw new PlatformError("VALIDATION_FAILED", `limit must be an integer from 1 to ${max}`, {
      details: { fields: ["limit"] },
    });
}
