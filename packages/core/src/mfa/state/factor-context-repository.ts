import type { InjectionToken } from "tsyringe";
import type { FactorContext } from "./factor-context.js";

/**
 * Where MFA flows live between requests. Every method returns copies. A context is kept for a
 * retention period after its last write; an expired one is treated as absent by every method.
 */
export interface FactorContextRepository {
  /**
   * Stores a new context with version 1 (whatever `ctx.version` says) and returns it. Throws
   * `CONFLICT` when a live context already has this `mfaSessionId`.
   */
  create(ctx: FactorContext): Promise<FactorContext>;
  /** The live context with this id; undefined when absent, deleted or expired. */
  find(mfaSessionId: string): Promise<FactorContext | undefined>;
  /**
   * Compare-and-set: stores `ctx` only if the stored version equals `ctx.version`, and returns it with
   * the version bumped by one; `createdAt` and `callerBinding` are kept from the store. Throws
   * `CONFLICT` ("The MFA session changed concurrently") on a stale version, `NOT_FOUND` when no live
   * context has this id.
   */
  save(ctx: FactorContext): Promise<FactorContext>;
  /** Removes the context; true if a live one existed. */
  delete(mfaSessionId: string): Promise<boolean>;
}

/** DI token of the FactorContextRepository port. */
export const FactorContextRepository: InjectionToken<FactorContextRepository> = Symbol.for(
  "platform.FactorContextRepository",
);

/** How long a repository keeps a context after its last write by default: 30 minutes. */
export const DEFAULT_FACTOR_CONTEXT_RETENTION_MS = 30 * 60_000;
