import type { Logger } from "../kernel/logger.js";
import { cleanResourceName } from "./clean-resource-name.js";
import { offlineResourceName } from "./offline-resource-namer.js";
import type { ResourceNamer } from "./resource-namer.js";
import type { ResourceName, ResourceNaming, ScannedResource } from "./scanned-resource.js";

/** The spec's batch size. */
export const RESOURCE_NAMING_BATCH_SIZE = 10;

/** Options of BatchedResourceNaming. */
export interface BatchedResourceNamingOptions {
  readonly namer: ResourceNamer;
  /** Where failed batches are reported (never with the namer's key or answer). */
  readonly logger?: Logger;
  /** Resources per namer call; default 10. */
  readonly batchSize?: number;
  /** Longest one namer call may take before it counts as failed; default 20 s. */
  readonly attemptTimeoutMs?: number;
  /** Longest the whole `nameAll` may take; past it, the batches left get fallback names. Default 120 s. */
  readonly budgetMs?: number;
}

/**
 * The naming service: `nameAll` cuts the resources into batches of 10 and asks the ResourceNamer for
 * each; an attempt that throws, times out, or answers a count other than the batch's is retried once,
 * then the batch takes fallback names (the offline namer's). Every proposed name is cleaned
 * (`cleanResourceName`); one that is empty after cleaning takes its fallback alone. It answers one
 * name per resource, in input order, never throws, and ends within `budgetMs` (the batches left then
 * take fallback names), so a slow or broken model never holds the sync.
 */
export class BatchedResourceNaming implements ResourceNaming {
  private readonly batchSize: number;
  private readonly attemptTimeoutMs: number;
  private readonly budgetMs: number;

  constructor(private readonly o: BatchedResourceNamingOptions) {
    this.batchSize = Math.max(1, o.batchSize ?? RESOURCE_NAMING_BATCH_SIZE);
    this.attemptTimeoutMs = o.attemptTimeoutMs ?? 20_000;
    this.budgetMs = o.budgetMs ?? 120_000;
  }

  async nameAll(resources: readonly ScannedResource[]): Promise<readonly ResourceName[]> {
    const budget = AbortSignal.timeout(this.budgetMs);
    const names: ResourceName[] = [];
    for (let start = 0; start < resources.length; start += this.batchSize) {
      const batch = resources.slice(start, start + this.batchSize);
      const proposed = budget.aborted
        ? undefined
        : ((await this.attempt(batch, budget, 1)) ?? (await this.attempt(batch, budget, 2)));
      batch.forEach((resource, i) => {
        names.push((proposed && cleanResourceName(proposed[i])) ?? fallbackName(resource));
      });
    }
    return names;
  }

  /** One namer call within the attempt's deadline and the budget: its answer, or undefined when it failed. */
  private async attempt(
    batch: readonly ScannedResource[],
    budget: AbortSignal,
    attempt: number,
  ): Promise<readonly unknown[] | undefined> {
    if (budget.aborted) return undefined;
    const signal = AbortSignal.any([budget, AbortSignal.timeout(this.attemptTimeoutMs)]);
    try {
      const call = Promise.resolve().then(() => this.o.namer.name(batch, signal));
      const answer: unknown = await untilAborted(call, signal);
      if (Array.isArray(answer) && answer.length === batch.length) return answer;
      this.report(
        batch,
        attempt,
        "MALFORMED",
        `answered ${Array.isArray(answer) ? answer.length : "no"} names`,
      );
    } catch (error) {
      const code = signal.aborted ? "TIMEOUT" : String((error as { code?: unknown } | null)?.code ?? "ERROR");
      this.report(batch, attempt, code, undefined);
    }
    return undefined;
  }

  private report(
    batch: readonly ScannedResource[],
    attempt: number,
    code: string,
    problem: string | undefined,
  ): void {
    this.o.logger?.warn("resource naming batch failed", {
      namer: this.o.namer.id,
      attempt,
      code,
      ...(problem ? { problem } : {}),
      first: batch[0]?.resourceIdentifier,
      size: batch.length,
      next: attempt === 1 ? "retry" : "fallback names",
    });
  }
}

/** The name a resource takes when the namer gave none: the offline namer's, else the scanner's. */
function fallbackName(resource: ScannedResource): ResourceName {
  try {
    return cleanResourceName(offlineResourceName(resource)) ?? scannerName(resource);
  } catch {
    return scannerName(resource);
  }
}

function scannerName(resource: ScannedResource): ResourceName {
  return { friendlyName: resource.friendlyName, description: resource.description };
}

/** `work`, or a rejection as soon as `signal` aborts (a namer that ignores its signal cannot hold us). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
