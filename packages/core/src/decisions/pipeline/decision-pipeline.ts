import type { ZeroTrustActionService } from "../../authz/zerotrust/zero-trust-action-service.js";
import { zeroTrustUserSubject } from "../../authz/zerotrust/zero-trust-subject.js";
import type { UserAccount } from "../../identity/users/user-account.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { DecisionPipelineSettings } from "./decision-pipeline.properties.js";
import type { BundleSelector } from "./bundle-selector.js";
import { type DecisionContextBuilder, withEventLine } from "./decision-context-builder.js";
import { type DecisionEvent, severityOf } from "./decision-event.js";
import type { DecisionMaker, DecisionOutcome } from "./decision-maker.js";
import type { DecisionOutcomeWriter } from "./decision-outcome-writer.js";
import { DecisionQueue } from "./decision-queue.js";
import { DECISION_PIPELINE_SOURCE, DECISIONS_AUDIT } from "./decisions-audit.js";
import type { ModelCallCaps } from "./model-call-caps.js";
import { redactForExternalModel } from "./prompt-redaction.js";
import type { ShadowDecisions } from "./shadow-decisions.js";
import type { DecisionHistoryStore } from "../history/decision-history-store.js";
import { throttleAddressKey } from "../../identity/throttle/throttle-keys.js";

/** What `submit` did with an event. */
export type DecisionSubmission = "queued" | "deferred" | "disabled" | "coalesced" | "queue-full";

/** Why an accepted event was not decided. */
export type DecisionDropReason = "queue-full" | "unknown-user";

/** Why the configured model was not asked and the in-process analyst decided instead. */
export type DecisionFallbackReason = "rate-cap" | "cost-cap" | "user-cap" | "timeout" | "error";

/** Counters of the pipeline (this process). */
export interface DecisionPipelineStats {
  readonly submitted: number;
  readonly disabled: number;
  /** Events merged into a decision of the same user already waiting (routine ones, or a later high one). */
  readonly coalesced: number;
  /** High-severity events held until the user's decision in progress ended, then decided. */
  readonly deferred: number;
  readonly dropped: Readonly<Record<DecisionDropReason, number>>;
  /** Sampled events whose user already had a live action when their turn came. */
  readonly freshActionKept: number;
  /** Sign-ins not decided again: the user's last decision is recent and from the same network. */
  readonly recentDecisionKept: number;
  /** Decisions the in-process analyst made because the configured model could not be asked. */
  readonly fellBack: Readonly<Record<DecisionFallbackReason, number>>;
  readonly decided: number;
  readonly failed: number;
  readonly timedOut: number;
  /** Events waiting on the queue now, and decisions running now (the queue depth). */
  readonly queued: number;
  readonly running: number;
  /** Model calls counted against the caps in the current clock minute and UTC day. */
  readonly modelCalls: { readonly minute: number; readonly day: number };
}

/** What the pipeline is built from. */
export interface DecisionPipelineParts {
  readonly settings: DecisionPipelineSettings;
  /** The configured model side (the caps count its calls). */
  readonly maker: DecisionMaker;
  /**
   * The in-process model side (the built-in analyst under the layered engine) that decides when the
   * configured one may not be asked (over a cap) or did not answer in time. It costs no model call.
   */
  readonly fallback: DecisionMaker;
  readonly selector: BundleSelector;
  /** Shadow runs, when configured: sampled copies of decisions run with a candidate bundle, recorded only. */
  readonly shadow?: ShadowDecisions | undefined;
  readonly context: DecisionContextBuilder;
  readonly writer: DecisionOutcomeWriter;
  readonly zeroTrust: ZeroTrustActionService;
  readonly caps: ModelCallCaps;
  /** The past decisions (a recent sign-in decision is not repeated). */
  readonly history: DecisionHistoryStore;
  readonly audit: AuditSink;
}

/** One user's decision in progress, and the high-severity event to decide after it, if any. */
interface InProgress {
  followUp?: DecisionEvent;
}

/**
 * The security-decision pipeline around the model. `submit` takes an event off the request path
 * (it never awaits a decision), marks the user PENDING_ANALYSIS while the decision waits (only over
 * no record or an earlier marker), and queues it on a bounded queue; a full queue and an unknown user
 * drop it with a counted, audited reason. One decision per user runs at a time: a routine event of a
 * user already waiting is coalesced into it, a high-severity one is deferred and decided right after
 * it (the latest such event), so a denial burst is never lost behind a sign-in. A sampled event whose
 * user has a live action by then, and a sign-in of a user decided recently from the same network,
 * are not decided. Each decision: context (the PIP), bundle selection (fixed for the event),
 * redaction for an external model, then the configured DecisionMaker if the caps admit it, else the
 * in-process fallback maker (never a drop: nobody escapes a decision by spending the caps), then the
 * writer. A decision past the timeout is made again by the fallback maker in the background. The
 * kill switch (`platform.security.decision.enabled` false) refuses every event.
 */
export class DecisionPipeline {
  private readonly queue: DecisionQueue;
  private readonly inProgress = new Map<string, InProgress>();
  private readonly background = new Set<Promise<unknown>>();
  private counts = {
    submitted: 0,
    disabled: 0,
    coalesced: 0,
    deferred: 0,
    freshActionKept: 0,
    recentDecisionKept: 0,
    decided: 0,
    failed: 0,
    dropped: { "queue-full": 0, "unknown-user": 0 },
    fellBack: { "rate-cap": 0, "cost-cap": 0, "user-cap": 0, timeout: 0, error: 0 },
  };

  constructor(private readonly p: DecisionPipelineParts) {
    this.queue = new DecisionQueue({
      capacity: p.settings.queueCapacity,
      concurrency: p.settings.concurrency,
      timeoutMs: p.settings.timeoutMs,
    });
  }

  /** Takes an event; returns at once with what it did. Never throws. */
  submit(event: DecisionEvent): DecisionSubmission {
    this.counts.submitted++;
    if (!this.p.settings.enabled) {
      this.counts.disabled++;
      return "disabled";
    }
    const key = event.userId ?? `username:${event.username ?? ""}`;
    const current = this.inProgress.get(key);
    if (current === undefined) return this.enqueue(event, key);
    if (severityOf(event.kind) === "routine") {
      this.counts.coalesced++;
      return "coalesced";
    }
    if (current.followUp !== undefined) this.counts.coalesced++;
    else this.counts.deferred++;
    current.followUp = event;
    return "deferred";
  }

  /** The counters now. */
  stats(): DecisionPipelineStats {
    const q = this.queue.stats();
    return {
      ...this.counts,
      dropped: { ...this.counts.dropped },
      fellBack: { ...this.counts.fellBack },
      timedOut: q.timedOut,
      queued: q.waiting,
      running: q.running,
      modelCalls: this.p.caps.counts(),
    };
  }

  /** Resolves when no decision waits or runs and every background write settled. */
  async idle(): Promise<void> {
    do {
      await this.queue.idle();
      await Promise.allSettled([...this.background]);
      await this.p.shadow?.idle();
    } while (this.background.size > 0 || this.queue.stats().waiting + this.queue.stats().running > 0);
  }

  private enqueue(event: DecisionEvent, key: string): DecisionSubmission {
    let marker: Promise<void> | undefined;
    // The queue starts a job on a later microtask, so `marker` is set before the job reads it.
    const accepted = this.queue.offer((signal) => this.decide(event, marker!, signal, key), event.id);
    if (!accepted) {
      this.drop(event, "queue-full");
      return "queue-full";
    }
    this.inProgress.set(key, {});
    marker = this.track(event.kind === "REQUEST_SAMPLED" ? Promise.resolve() : this.markPending(event));
    return "queued";
  }

  /** Ends the user's decision in progress and queues its deferred high-severity event, if any. */
  private release(key: string): void {
    const followUp = this.inProgress.get(key)?.followUp;
    this.inProgress.delete(key);
    if (followUp !== undefined) this.enqueue(followUp, key);
  }

  private async decide(
    event: DecisionEvent,
    marker: Promise<void>,
    signal: AbortSignal,
    key: string,
  ): Promise<void> {
    // The queue aborts at the timeout and moves on; a configured model side that fails or is too slow
    // hands the event to the in-process analyst in the background (nobody is left undecided), and
    // only then is the user's next event let in, so two decisions of one user never race.
    let handedOff = false;
    const handOff = (reason: "timeout" | "error") => {
      handedOff = true;
      this.track(this.decideInProcess(event, reason).finally(() => this.release(key)));
    };
    const onAbort = () => {
      this.recordFailure(event, "timeout", undefined);
      handOff("timeout");
    };
    signal.addEventListener("abort", onAbort, { once: true });
    let account: UserAccount | undefined;
    try {
      await marker;
      account = await this.p.context.accountOf(event);
      if (account === undefined) return this.drop(event, "unknown-user");
      if (event.kind === "REQUEST_SAMPLED" && (await this.hasLiveAction(account.id))) {
        this.counts.freshActionKept++;
        return;
      }
      if (await this.decidedRecently(event, account.id)) {
        this.counts.recentDecisionKept++;
        return;
      }
      const cap = this.p.caps.admit(account.id, severityOf(event.kind));
      await this.run(event, account, signal, cap === "ok" ? undefined : cap);
    } catch (error) {
      if (signal.aborted) return; // handed off by onAbort
      this.counts.failed++;
      this.recordFailure(event, "error", error);
      if (account !== undefined) handOff("error");
    } finally {
      signal.removeEventListener("abort", onAbort);
      if (!handedOff) this.release(key);
    }
  }

  /** The fallback maker's decision of `event`, within its own timeout; failures are audited. */
  private async decideInProcess(event: DecisionEvent, reason: DecisionFallbackReason): Promise<void> {
    const signal = AbortSignal.timeout(this.p.settings.timeoutMs);
    try {
      const account = await this.p.context.accountOf(event);
      if (account !== undefined) await this.run(event, account, signal, reason);
    } catch (error) {
      this.counts.failed++;
      this.recordFailure(event, "error", error);
    }
  }

  /** Decides with the configured maker, or with the fallback maker when `fallBack` says why. */
  private async run(
    event: DecisionEvent,
    account: UserAccount,
    signal: AbortSignal,
    fallBack?: DecisionFallbackReason,
  ): Promise<void> {
    const maker = fallBack === undefined ? this.p.maker : this.p.fallback;
    const built = await this.p.context.build(event, account);
    const selection = this.p.selector.select(event);
    const { input, redacted } = maker.model.external
      ? redactForExternalModel(built, this.p.settings.redaction)
      : { input: built, redacted: [] as string[] };
    const sent = withEventLine(input, event);
    // Copied before the decision; only a decision of the configured model has a shadow to compare.
    const shadow =
      fallBack === undefined ? this.p.shadow?.copy({ input: sent, selection, event }) : undefined;
    let outcome = await maker.decide({ input: sent, selection, event }, signal);
    if (fallBack === undefined) this.p.caps.settle(account.id, outcome.modelCalls ?? outcome.prompts.length);
    else {
      this.counts.fellBack[fallBack]++;
      outcome = withFallbackNote(outcome, fallBack);
    }
    signal.throwIfAborted();
    await this.p.writer.write({ event, account, input: sent, outcome, redacted, selection });
    this.counts.decided++;
    shadow?.after(outcome);
  }

  /**
   * A completed sign-in whose user was decided within `redecide-after`, from the same address (an
   * IPv6 /64 counts as one), changes nothing the last decision did not see: it is not decided again,
   * and the decision in force (or its expiry) stands. Any other kind of event is always decided.
   */
  private async decidedRecently(event: DecisionEvent, userId: string): Promise<boolean> {
    const window = this.p.settings.redecideAfterMs;
    if (event.kind !== "SIGN_IN_COMPLETED" || window === 0) return false;
    const [last] = await this.p.history.recentFor(userId, 1);
    if (last === undefined || event.at - last.at >= window || event.at < last.at) return false;
    return networkOf(last.network) === networkOf(event.remoteAddress);
  }

  /**
   * Marks the user PENDING_ANALYSIS while the decision waits, over no record or an earlier marker
   * only: a live decision (the pipeline's own CHALLENGE or ALLOW, any BLOCK, an administrator's
   * record) stays in force until the new decision replaces it.
   */
  private async markPending(event: DecisionEvent): Promise<void> {
    const account = await this.p.context.accountOf(event);
    if (account === undefined) return;
    const subject = zeroTrustUserSubject(account.id);
    const existing = await this.p.zeroTrust.get(subject);
    if (existing !== undefined && existing.action !== "PENDING_ANALYSIS") return;
    if (existing !== undefined && existing.source !== DECISION_PIPELINE_SOURCE) return;
    await this.p.zeroTrust.set(subject, "PENDING_ANALYSIS", {
      source: DECISION_PIPELINE_SOURCE,
      reason: `awaiting the AI decision of ${event.kind}`,
      ttlMs: this.p.settings.pendingTtlMs,
    });
  }

  private async hasLiveAction(userId: string): Promise<boolean> {
    const existing = await this.p.zeroTrust.get(zeroTrustUserSubject(userId));
    return existing !== undefined && existing.action !== "PENDING_ANALYSIS";
  }

  // Marker writes fail quietly (the decision that follows writes the real action).
  private track(work: Promise<void>): Promise<void> {
    const settled = work.catch(() => {});
    this.background.add(settled);
    void settled.finally(() => this.background.delete(settled));
    return settled;
  }

  private drop(event: DecisionEvent, reason: DecisionDropReason): void {
    this.counts.dropped[reason]++;
    this.audit(DECISIONS_AUDIT.dropped, "denied", event, { reason });
  }

  private recordFailure(event: DecisionEvent, reason: "timeout" | "error", error: unknown): void {
    const code = (error as { code?: unknown } | null)?.code;
    this.audit(DECISIONS_AUDIT.failed, "failure", event, {
      reason,
      ...(reason === "error"
        ? { error: typeof code === "string" ? code.slice(0, 64) : errorName(error) }
        : {}),
    });
  }

  private audit(
    type: string,
    outcome: "denied" | "failure",
    event: DecisionEvent,
    data: Record<string, unknown>,
  ) {
    try {
      this.p.audit.record({
        type,
        outcome,
        principal: event.username ?? "system",
        data: {
          eventId: event.id,
          eventKind: event.kind,
          ...(event.userId ? { userId: event.userId } : {}),
          ...data,
        },
      });
    } catch {
      // Never into the caller.
    }
  }
}

/** The outcome with why the configured model was not the one asked (kept with any engine fallback). */
function withFallbackNote(outcome: DecisionOutcome, reason: DecisionFallbackReason): DecisionOutcome {
  const note =
    reason === "timeout"
      ? "DECISION_TIMEOUT: the configured model did not decide in time; decided in process"
      : reason === "error"
        ? "DECISION_MAKER_FAILED: the configured model side failed; decided in process"
        : `DECISION_MODEL_CAPPED: the ${reason} on model calls was reached; decided in process`;
  return { ...outcome, fallback: outcome.fallback ? `${note}; ${outcome.fallback}` : note };
}

/** The network an address is judged by: itself (IPv4), its /64 (IPv6), or none. */
function networkOf(address: string | undefined): string {
  return address === undefined ? "" : throttleAddressKey(address);
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
