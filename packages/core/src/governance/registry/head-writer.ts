import { PlatformError } from "../../kernel/platform-error.js";
import type { ReleaseRegistry, ReleaseScopeHead } from "./release-registry.js";

/** How often a lost compare-and-set is retried, and how long at most it waits between tries. */
export interface HeadWriteRetry {
  /** Tries in all, at least 1; default 8. */
  readonly attempts: number;
  /** The longest pause before a retry, in milliseconds (the pause grows per try, jittered); default 40. */
  readonly maxDelayMs: number;
}

/** The retry of every service write unless its options say otherwise. */
export const DEFAULT_HEAD_WRITE_RETRY: HeadWriteRetry = Object.freeze({ attempts: 8, maxDelayMs: 40 });

/** What one try decided: the head to write (absent: write nothing) and the answer. */
export interface HeadWritePlan<T> {
  readonly next?: Pick<ReleaseScopeHead, "releases" | "openExecutions"> | undefined;
  readonly result: T;
}

/** The answer of a write and the head it left (the written one, or the one read when nothing was written). */
export interface HeadWriteOutcome<T> {
  readonly result: T;
  readonly head: ReleaseScopeHead;
  readonly written: boolean;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One change of a scope's head by compare-and-set: reads the head, lets `plan` decide on it (its
 * checks run again on every fresh read), writes the planned head against the revision read; on a
 * lost race, tries again from a fresh read, up to `retry.attempts` times, then RELEASE_REGISTRY_BUSY
 * (nothing written). A plan without `next` writes nothing and answers at once.
 */
export async function writeScopeHead<T>(
  registry: ReleaseRegistry,
  registryScope: string,
  plan: (head: ReleaseScopeHead) => Promise<HeadWritePlan<T>>,
  retry: HeadWriteRetry = DEFAULT_HEAD_WRITE_RETRY,
): Promise<HeadWriteOutcome<T>> {
  for (let attempt = 1; attempt <= Math.max(1, retry.attempts); attempt += 1) {
    const head = await registry.head(registryScope);
    const decided = await plan(head);
    if (decided.next === undefined) return { result: decided.result, head, written: false };
    const written = await registry.replaceHead(registryScope, head.revision, decided.next);
    if (written) return { result: decided.result, head: written, written: true };
    // Jitter (not a secret, so Math.random) spreads writers that lost together.
    if (retry.maxDelayMs > 0) await pause(Math.random() * Math.min(retry.maxDelayMs, 2 ** attempt));
  }
  throw new PlatformError(
    "RELEASE_REGISTRY_BUSY",
    `Scope ${registryScope} changed under every one of ${retry.attempts} tries; nothing was written`,
  );
}
