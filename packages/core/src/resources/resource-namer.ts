import type { InjectionToken } from "tsyringe";
import type { ResourceName, ScannedResource } from "./scanned-resource.js";

/**
 * Proposes names for one batch of scanned resources (at most 10, the spec's batch size): one
 * `ResourceName` per resource, in the batch's order. It may throw or answer badly: the naming service
 * (`ResourceNaming`) validates and cleans every answer, retries a failed batch once and falls back to
 * the built-in offline names. It should stop when `signal` aborts (the attempt's deadline).
 * Built in: the offline namer (default) and an OpenAI-compatible one
 * (`platform.authz.resources.namer`); a host replaces it with `override(ResourceNamer, ...)`.
 */
export interface ResourceNamer {
  /** A short stable id for logs (`offline`, `openai-compatible:<model>`). */
  readonly id: string;
  name(batch: readonly ScannedResource[], signal: AbortSignal): Promise<readonly ResourceName[]>;
}

/** DI token of the ResourceNamer port. */
export const ResourceNamer: InjectionToken<ResourceNamer> = Symbol.for("platform.ResourceNamer");
