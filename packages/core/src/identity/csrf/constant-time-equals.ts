import { timingSafeEqual } from "node:crypto";

/**
 * Compares two secrets in time independent of where they differ. Strings of different byte length
 * are unequal without calling `timingSafeEqual` (which throws on them); a length is not a secret.
 */
export function constantTimeEquals(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}
