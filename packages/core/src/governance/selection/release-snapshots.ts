import type { InjectionToken } from "tsyringe";
import type { ReleaseRow } from "../registry/release-registry.js";

/** The release registry as one read saw it: every written scope's releases. */
export interface ReleaseSnapshot {
  /** When the read completed (epoch milliseconds, from the Clock port). */
  readonly readAt: number;
  /** Each written scope's releases, as read (rows are never mutated: a change replaces the row). */
  readonly scopes: ReadonlyMap<string, readonly ReleaseRow[]>;
}

/**
 * The run-time view of the release registry that the registry selector and the shadow runner read on
 * the decision path: synchronous, from memory. Its implementation reads the registry in the
 * background, at most `registry.cache-ttl` apart and at once when a release changed (this instance's
 * RELEASES_CHANGED_EVENT, another's through the `prompt-releases` change counter polled every
 * `registry.poll-interval`).
 */
export interface ReleaseSnapshots {
  /**
   * The newest snapshot no older than the cache TTL; undefined before the first read completed, or
   * when the registry could not be read for longer than the TTL (callers then run the build default).
   */
  current(): ReleaseSnapshot | undefined;
}

/** DI token of the ReleaseSnapshots (registered by promptGovernancePlugin; internal to governance). */
export const ReleaseSnapshots: InjectionToken<ReleaseSnapshots> = Symbol.for("platform.ReleaseSnapshots");

/**
 * Works out the resource family of a decision's request (for canary narrowing and shadow drift): the
 * managed resource's service owner for the request's target, else the owning route's feature;
 * undefined when the event has no target or no route owns it. Synchronous, from memory.
 */
export type ResourceFamilyOf = (method: string | undefined, target: string | undefined) => string | undefined;
