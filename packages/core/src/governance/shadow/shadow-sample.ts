import { hash } from "node:crypto";

/** How many buckets an event ID hashes into: 0 to 999,999 (one percent is 10,000 buckets). */
export const SHADOW_SAMPLE_BUCKETS = 1_000_000;

/** The tag of the sampling scheme, hashed in front of every event ID (changing it redraws the sample). */
const SCHEME = "shadow-sample/1";

/**
 * The shadow sample bucket of an event ID, 0 to SHADOW_SAMPLE_BUCKETS - 1: the first 48 bits of
 * SHA-256 over the length-prefixed scheme tag and the ID, modulo the bucket count (as the canary's
 * bucket does, and for the same reasons: native, even on any input, not aimable but by trial).
 * Deterministic across calls, processes and instances, so every instance samples the same events.
 */
export function shadowSampleBucket(eventId: string): number {
  const digest = hash("sha256", `${SCHEME.length}:${SCHEME}${eventId}`, "hex");
  return Number.parseInt(digest.slice(0, 12), 16) % SHADOW_SAMPLE_BUCKETS;
}

/** True when `eventId` falls in a `percent` (0 to 100) sample: its bucket is below percent × 10,000. */
export function inShadowSample(eventId: string, percent: number): boolean {
  if (!(percent > 0)) return false;
  if (percent >= 100) return true;
  return shadowSampleBucket(eventId) < percent * (SHADOW_SAMPLE_BUCKETS / 100);
}
