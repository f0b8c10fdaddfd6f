import { hash } from "node:crypto";
import type { ReleaseRow } from "../registry/release-registry.js";

/**
 * How many buckets a requester hashes into: 0 to 999,999. One percent is 10,000 buckets, so a share
 * can be as fine as 0.0001 percent should the registry ever allow fractions (it takes integers).
 */
export const CANARY_BUCKETS = 1_000_000;

/** The fields of a release its canary salt is made of. */
export type CanarySaltSource = Pick<
  ReleaseRow,
  "registryScope" | "promptKey" | "promptVersion" | "artifactHash"
>;

/**
 * The salt of a release's canary: its scope, prompt key, version and artifact hash, in a tagged JSON
 * array (unambiguous whatever the fields hold; the tag names the scheme should it ever change). Two
 * releases draw independent samples, and a new build of a version (another artifact hash) draws a
 * new one. The share and the targets are not in it, so raising the share keeps everyone who was in.
 */
export function canarySaltOf(release: CanarySaltSource): string {
  return JSON.stringify([
    "canary/1",
    release.registryScope,
    release.promptKey,
    release.promptVersion,
    release.artifactHash,
  ]);
}

/**
 * The requester's bucket in a release's canary, 0 to CANARY_BUCKETS - 1: the first 48 bits of
 * SHA-256 over the length-prefixed salt and the requester key, modulo the bucket count (the modulo
 * bias is below 1e-8). Deterministic across calls, processes and machines; never throws for any
 * string (empty, huge, lone surrogates). SHA-256 because it is native, spreads any input evenly
 * with nothing to tune, and an id can be aimed at a bucket only by trial, where a faster
 * non-cryptographic hash (FNV, Murmur) can be solved for one; one call costs ~2 µs, against a
 * decision that waits for a model.
 */
export function canaryBucket(releaseSalt: string, requesterKey: string): number {
  // Hex, not a Buffer: allocating the Buffer costs more than the hash at this size.
  const digest = hash("sha256", `${releaseSalt.length}:${releaseSalt}${requesterKey}`, "hex");
  return Number.parseInt(digest.slice(0, 12), 16) % CANARY_BUCKETS;
}
