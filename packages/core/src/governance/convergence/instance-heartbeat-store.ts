import type { InjectionToken } from "tsyringe";
import type { SelectionSource } from "../../decisions/engine/bundle-selection.js";

/** What one instance serves for one prompt key in one scope, by one selection source. */
export interface ScopeServing {
  readonly registryScope: string;
  readonly promptKey: string;
  /** The bundle version the instance runs there. */
  readonly promptVersion: string;
  /** Its manifest's bundle hash: what the convergence report compares with the registry's. */
  readonly bundleHash: string;
  /** Why it runs it: REGISTRY, CANARY, SHADOW, CONFIGURATION or BUILD_DEFAULT (a fallback). */
  readonly source: SelectionSource;
}

/** One instance's latest heartbeat: the whole record, replaced by every beat. */
export interface InstanceHeartbeat {
  /** The instance's id, stable for the life of its process (1 to 128 characters). */
  readonly instanceId: string;
  /** When the instance's process started (epoch milliseconds). */
  readonly startedAt: number;
  /** When it beat (epoch milliseconds, from the Clock port): what `prune` compares. */
  readonly at: number;
  /** At most one entry per scope, prompt key and source; at most MAX_HEARTBEAT_SERVINGS. */
  readonly serving: readonly ScopeServing[];
  /**
   * Which selector the instance decides with (`prompt-bundle.selector`): CONFIGURATION does not read
   * the registry, so the convergence report marks it as not following it. Absent: not said.
   */
  readonly selector?: HeartbeatSelector | undefined;
}

/** The selectors a heartbeat names (`prompt-bundle.selector`'s values). */
export const HEARTBEAT_SELECTORS = ["CONFIGURATION", "REGISTRY"] as const;
/** One of HEARTBEAT_SELECTORS. */
export type HeartbeatSelector = (typeof HEARTBEAT_SELECTORS)[number];

/** Most serving entries in one heartbeat (scopes times prompt keys times sources). */
export const MAX_HEARTBEAT_SERVINGS = 500;

/** Longest string field of a heartbeat, per field. */
export const HEARTBEAT_TEXT_LIMITS = {
  instanceId: 128,
  registryScope: 200,
  promptKey: 128,
  promptVersion: 64,
  bundleHash: 128,
} as const;

/**
 * Where every instance says which bundle it serves per scope (issue 31: the convergence report reads
 * it). One record per instance. Every method checks its input first (VALIDATION_FAILED, nothing
 * written): non-empty strings within HEARTBEAT_TEXT_LIMITS, times as non-negative integers, a known
 * source, no two entries of one scope, prompt key and source, at most MAX_HEARTBEAT_SERVINGS entries.
 */
export interface InstanceHeartbeatStore {
  /**
   * Stores `heartbeat` as its instance's record, replacing the previous one whole in one atomic step
   * (an upsert, never an append): a reader sees one beat or another, never a mix of two. Of
   * concurrent beats of one instance the last applied wins, so an instance beats from one loop.
   */
  beat(heartbeat: InstanceHeartbeat): Promise<void>;
  /** Every instance's latest record, ordered by instance id (pruning keeps the list short). */
  list(): Promise<InstanceHeartbeat[]>;
  /** Removes every instance whose latest beat is older than `olderThan` (epoch ms); answers how many. */
  prune(olderThan: number): Promise<number>;
}

/** DI token of the InstanceHeartbeatStore port. */
export const InstanceHeartbeatStore: InjectionToken<InstanceHeartbeatStore> = Symbol.for(
  "platform.InstanceHeartbeatStore",
);
