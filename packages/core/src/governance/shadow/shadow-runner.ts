import type { BundleSelection } from "../../decisions/engine/bundle-selection.js";
import type { SealedEvidence } from "../../decisions/evidence/sealed-evidence-service.js";
import type { DecisionEvent } from "../../decisions/pipeline/decision-event.js";
import type {
  DecisionMaker,
  DecisionOutcome,
  DecisionRequest,
} from "../../decisions/pipeline/decision-maker.js";
import { DecisionQueue } from "../../decisions/pipeline/decision-queue.js";
import type { ShadowCopy, ShadowDecisions } from "../../decisions/pipeline/shadow-decisions.js";
import type { AuditEvent, AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import type { Logger } from "../../kernel/logger.js";
import type { PromptInput } from "../../prompts/input/prompt-input.js";
import type { ResourceFamilyOf } from "../selection/release-snapshots.js";
import { requesterKeyOf } from "../selection/requester-key.js";
import { SHADOW_AUDIT } from "./shadow-audit.js";
import { agrees, type ComparisonBatch, ShadowComparisonBatches } from "./shadow-comparison-batches.js";
import type { ShadowComparisonRecorder } from "./shadow-comparison-recorder.js";
import { ShadowDailyCap } from "./shadow-daily-cap.js";
import { inThreadShadowExecutor, type ShadowExecutor, type ShadowExecutorStats } from "./shadow-executor.js";
import { shadowEvidencePackage } from "./shadow-evidence-package.js";
import type { ShadowReleaseLookup } from "./shadow-release-lookup.js";
import { inShadowSample } from "./shadow-sample.js";
import { compareShadowRun, resourceFamilyOfEvent } from "./shadow-run-comparison.js";

/** Shadow runs that may wait for the runner's executor (more are dropped, counted). */
export const SHADOW_QUEUE_CAPACITY = 64;
/** Comparisons of one SHADOW bundle kept while the ledger cannot be written (the oldest dropped past it). */
export const SHADOW_MAX_PENDING_RUNS = 10_000;

/** What the runner is built from. */
export interface ShadowRunnerOptions {
  /** `shadow.sample-percent`, 1 to 100. */
  readonly samplePercent: number;
  /** `shadow.daily-call-cap`: runs admitted per UTC day. */
  readonly dailyCap: number;
  /** `shadow.requester-share-percent`: the share of the day's cap one requester may take (absent: 100). */
  readonly requesterSharePercent?: number | undefined;
  /** Runs per SHADOW_COMPARISON record. */
  readonly batchSize: number;
  /** One run's budget (the decision timeout): past it the run is aborted and counted. */
  readonly timeoutMs: number;
  readonly queueCapacity?: number | undefined;
  /** The configured DecisionMaker: the model the enforced decision asked. */
  readonly maker: DecisionMaker;
  /** Where each run's CPU is spent (default: `maker` on the serving thread). */
  readonly executor?: ShadowExecutor | undefined;
  readonly lookup: ShadowReleaseLookup;
  /** Records each run (stage SHADOW: always sealed). */
  readonly evidence: Pick<SealedEvidence, "record">;
  readonly recorder: ShadowComparisonRecorder;
  /** The request's resource family (absent or undefined: `event:<kind>`). */
  readonly familyOf?: ResourceFamilyOf | undefined;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly audit: AuditSink;
  readonly logger: Logger;
}

/** Counters of the shadow runner (this process). */
export interface ShadowRunnerStats extends ShadowExecutorStats {
  /** Decisions in the sample (before the release and the cap were asked). */
  readonly sampled: number;
  /** Sampled decisions without a SHADOW release to run (none, no snapshot yet, scope failure). */
  readonly noRelease: number;
  /** Sampled decisions whose SHADOW release this build does not run. */
  readonly notInBuild: number;
  /** Sampled decisions refused by the daily cap. */
  readonly capped: number;
  /** Sampled decisions refused because their requester took its share of the day's cap. */
  readonly requesterCapped: number;
  /** Runs admitted (counted against the daily cap). */
  readonly admitted: number;
  /** Admitted runs dropped because the executor's queue was full. */
  readonly queueFull: number;
  readonly ran: number;
  readonly failed: number;
  readonly timedOut: number;
  readonly sealFailed: number;
  /** Runs sealed but not compared: the enforced outcome was a recorded fallback. */
  readonly baselineFellBack: number;
  readonly batchesRecorded: number;
  /** Comparisons waiting for their batch, and comparisons dropped while the ledger failed. */
  readonly pendingComparisons: number;
  readonly droppedComparisons: number;
}

/** The frozen copy of one decision's request. */
interface FrozenRequest {
  readonly input: PromptInput;
  readonly event: DecisionEvent;
  readonly selection: BundleSelection;
}

/**
 * The shadow runner (the spec's shadow run rules): the ShadowDecisions the decision pipeline asks
 * before each decision of the configured model. `copy` is synchronous and cheap: an event in the
 * sample (a stable hash of its ID), with a SHADOW release this build runs, inside the UTC day's cap,
 * gets a frozen copy of what the enforced maker got. `after` queues the run on the runner's own
 * executor (as many at a time as the executor takes, a bounded queue, the decision timeout); the run asks the configured
 * DecisionMaker with the SHADOW bundle, seals the result as stage SHADOW and compares it with the
 * enforced outcome; comparisons go to the release evidence ledger in batches. Nothing it does is
 * enforced, learned or added to the session: no zero-trust write, no decision history, no event.
 */
export class ShadowRunner implements ShadowDecisions {
  private readonly queue: DecisionQueue;
  private readonly executor: ShadowExecutor;
  private readonly cap: ShadowDailyCap;
  private readonly batches: ShadowComparisonBatches;
  private readonly work = new Set<Promise<void>>();
  private readonly skippedVersions = new Set<string>();
  private stopping = false;
  private counts = {
    sampled: 0,
    noRelease: 0,
    notInBuild: 0,
    capped: 0,
    requesterCapped: 0,
    admitted: 0,
    queueFull: 0,
    ran: 0,
    failed: 0,
    timedOut: 0,
    sealFailed: 0,
    baselineFellBack: 0,
    batchesRecorded: 0,
  };

  constructor(private readonly o: ShadowRunnerOptions) {
    this.executor = o.executor ?? inThreadShadowExecutor(o.maker);
    this.cap = new ShadowDailyCap({
      clock: o.clock,
      cap: o.dailyCap,
      requesterSharePercent: o.requesterSharePercent,
    });
    this.batches = new ShadowComparisonBatches({
      batchSize: o.batchSize,
      maxPending: SHADOW_MAX_PENDING_RUNS,
    });
    this.queue = new DecisionQueue({
      capacity: o.queueCapacity ?? SHADOW_QUEUE_CAPACITY,
      concurrency: this.executor.concurrency ?? 1,
      timeoutMs: o.timeoutMs,
      onFailure: (reason, error, tag) => this.onFailure(reason, error, tag),
    });
  }

  copy(request: DecisionRequest): ShadowCopy | undefined {
    try {
      return this.tryCopy(request);
    } catch (error) {
      this.o.logger.warn("shadow copy failed; the decision goes on without one", { error: nameOf(error) });
      return undefined;
    }
  }

  async idle(): Promise<void> {
    do {
      await this.queue.idle();
      await Promise.allSettled([...this.work]);
    } while (this.work.size > 0 || this.queue.stats().waiting + this.queue.stats().running > 0);
  }

  /**
   * Records every partial batch (at stop, after `idle`); a batch the ledger refused stays pending.
   * From then on each run's comparison is recorded as soon as it is made: the platform's stop hooks
   * run in reverse plugin order, so decisions still queued in the pipeline may finish after this.
   */
  async flush(): Promise<void> {
    this.stopping = true;
    for (const batch of this.batches.drain()) await this.recordBatch(batch);
  }

  /** The counters now. */
  stats(): ShadowRunnerStats {
    const { pending, dropped } = this.batches.counts();
    return {
      ...this.counts,
      ...this.executor.stats(),
      pendingComparisons: pending,
      droppedComparisons: dropped,
    };
  }

  /** Releases the executor (its worker); runs asked after this go on the serving thread. */
  async close(): Promise<void> {
    await this.executor.stop();
  }

  private tryCopy(request: DecisionRequest): ShadowCopy | undefined {
    if (!inShadowSample(request.event.id, this.o.samplePercent)) return undefined;
    this.counts.sampled++;
    const found = this.o.lookup.find(request.event, request.selection);
    if ("miss" in found) {
      if (found.miss === "not-in-build") this.skip(found.version ?? "");
      else this.counts.noRelease++;
      return undefined;
    }
    const admission = this.cap.admit(shadowRequesterOf(request.event));
    if (admission !== "admitted") {
      if (admission === "cap-spent") this.counts.capped++;
      else this.counts.requesterCapped++;
      return undefined;
    }
    this.counts.admitted++;
    // Frozen before the decision: whatever happens to the request's objects later, the shadow runs
    // on what the enforced maker was given.
    const frozen = deepFreeze(structuredClone({ input: request.input, event: request.event }));
    const copy: FrozenRequest = { ...frozen, selection: found.selection };
    return {
      after: (enforced) => {
        const accepted = this.queue.offer(
          (signal) => this.track(this.run(copy, enforced, signal)),
          copy.event.id,
        );
        if (!accepted) this.counts.queueFull++;
      },
    };
  }

  /** Keeps `work` until it settles, so `idle` waits for a run the queue gave up on at its timeout. */
  private track(work: Promise<void>): Promise<void> {
    this.work.add(work);
    void work.catch(() => {}).finally(() => this.work.delete(work));
    return work;
  }

  private async run(copy: FrozenRequest, enforced: DecisionOutcome, signal: AbortSignal): Promise<void> {
    // The package's id and capture time are fixed when the run starts, wherever it runs.
    const id = this.o.ids.id();
    const at = this.o.clock.now();
    const { outcome, presealed } = await this.executor.run({ id, at, ...copy }, signal);
    signal.throwIfAborted();
    this.counts.ran++;
    const pkg = shadowEvidencePackage({ id, ...copy, outcome, at });
    await this.o.evidence.record(pkg, presealed).catch((error: unknown) => {
      this.counts.sealFailed++;
      this.o.logger.warn("shadow run not sealed", { eventId: copy.event.id, error: nameOf(error) });
    });
    // Against an enforced fallback (the configured model gave no accepted answer) there is no
    // bundle to compare with: sealed, counted, not compared.
    if (enforced.fallback !== undefined) {
      this.counts.baselineFellBack++;
      return;
    }
    const family = resourceFamilyOfEvent(this.o.familyOf, copy.event);
    const comparison = compareShadowRun(enforced, outcome, family, at);
    const agreed = agrees(comparison);
    this.record({
      type: SHADOW_AUDIT.ran,
      outcome: "info",
      data: {
        eventId: copy.event.id,
        shadowVersion: copy.selection.version,
        enforcedAction: enforced.action,
        shadowAction: outcome.action,
        agreed,
        shadowFellBack: comparison.shadowFellBack,
        packageId: pkg.id,
      },
    });
    const release = copy.selection.release!;
    const full = this.batches.add(
      {
        promptKey: release.promptKey,
        promptVersion: copy.selection.version,
        bundleHash: copy.selection.bundleHash,
      },
      comparison,
    );
    if (full !== undefined) await this.recordBatch(full);
    else if (this.stopping) await this.flush();
  }

  private async recordBatch(batch: ComparisonBatch): Promise<void> {
    if (!(await this.o.recorder.record(batch))) {
      this.batches.restore(batch);
      return;
    }
    this.counts.batchesRecorded++;
    this.record({
      type: SHADOW_AUDIT.batchRecorded,
      outcome: "success",
      data: {
        promptVersion: batch.bundle.promptVersion,
        bundleHash: batch.bundle.bundleHash,
        runs: batch.runs.length,
        agreed: batch.runs.filter(agrees).length,
      },
    });
  }

  private onFailure(reason: "error" | "timeout", error: unknown, eventId: string): void {
    if (reason === "timeout") this.counts.timedOut++;
    else this.counts.failed++;
    this.record({
      type: SHADOW_AUDIT.failed,
      outcome: "failure",
      data: { eventId, reason, ...(reason === "error" ? { error: nameOf(error) } : {}) },
    });
  }

  /** A SHADOW version this build does not run: counted, logged and audited once per version. */
  private skip(version: string): void {
    this.counts.notInBuild++;
    if (this.skippedVersions.has(version)) return;
    this.skippedVersions.add(version);
    this.o.logger.warn("SHADOW release not run by this build; its shadow runs are skipped", { version });
    this.record({ type: SHADOW_AUDIT.skipped, outcome: "info", data: { version } });
  }

  private record(event: AuditEvent): void {
    try {
      this.o.audit.record({ principal: "system", ...event });
    } catch {
      // The sink must not stop a shadow run.
    }
  }
}

/** The requester a run is counted to: the canary's stable key (user, else session, else event). */
function shadowRequesterOf(event: DecisionEvent): string {
  return requesterKeyOf({ userId: event.userId, sessionId: event.sessionHandle, eventId: event.id });
}

function nameOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code.slice(0, 64);
  return error instanceof Error ? error.name : typeof error;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
